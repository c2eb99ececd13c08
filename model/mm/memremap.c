// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names of the ZONE_DEVICE memory types (include/linux/memremap.h), for
 * reports and test cases: the project's own.
 */
#include "model/include/linux/memremap.h"

const char *memory_type_name(enum memory_type type)
{
	switch (type) {
	case MEMORY_DEVICE_PRIVATE:
		return "private";
	case MEMORY_DEVICE_COHERENT:
		return "coherent";
	case MEMORY_DEVICE_FS_DAX:
		return "fsdax";
	case MEMORY_DEVICE_GENERIC:
		return "generic";
	case MEMORY_DEVICE_PCI_P2PDMA:
		return "p2pdma";
	}
	return "?";
}
