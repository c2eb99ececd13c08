/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef NTB_LIB_BUILD_INFO_H
#define NTB_LIB_BUILD_INFO_H

/*
 * "# build target=image config=image compiler=\"gcc 12.2.0\" flags=\"-O2 ...\"
 * commit=<40 hex> dirty=0": what was built, from which commit, with which
 * compiler and flags (warnings and include paths left out), so
 * that a report of the run (tools/report --kcidb) names the build instead
 * of guessing it from the version string. Printed after the "# ntboot"
 * header, by the image and by the hosted programs alike.
 */
void build_info_print(void);

#endif
