# SPDX-License-Identifier: GPL-2.0-only
"""The manifests' reader (reportlib.manifest): what it derives, and each
slip it must refuse, named."""
import copy
import hashlib
import os
import pathlib
import tempfile
import unittest

import yaml

from reportlib import manifest


def data_of(name):
    with open(manifest.path_of(name)) as f:
        return yaml.safe_load(f)


class Claims(unittest.TestCase):
    def derive(self, data):
        with tempfile.NamedTemporaryFile("w", suffix=".yaml",
                                         delete=False) as f:
            yaml.safe_dump(data, f)
        try:
            return manifest.claims_from(
                manifest.read("claims", manifest.CLAIMS_SCHEMA, f.name),
                f.name)
        finally:
            os.unlink(f.name)

    def refused(self, data, words):
        with self.assertRaises(manifest.ManifestError) as e:
            self.derive(data)
        self.assertIn(words, str(e.exception))

    def test_figures(self):
        cs = manifest.claims()
        first = cs[0]
        self.assertEqual(first["posted"], "244.28 ms -> 96.79 ms")
        self.assertEqual((first["num"], first["den"]), (24428, 9679))
        self.assertAlmostEqual(first["ratio"], 244.28 / 96.79)
        # A rate: after / before.
        rate = next(c for c in cs if c["suite"] == "bench_nocache_copy")
        self.assertEqual((rate["num"], rate["den"]), (2134, 641))
        self.assertEqual(rate["key"], "method")
        self.assertEqual(rate["chunk"], 4096)
        self.assertNotIn("mode", rate)
        text = next(c for c in cs if c["ratio"] is None)
        self.assertEqual((text["num"], text["den"]), (0, 0))

    def test_refusals(self):
        base = data_of("claims")
        d = copy.deepcopy(base)
        d["claims"][0]["posting"] = "nowhere"
        self.refused(d, "no posting 'nowhere'")
        d = copy.deepcopy(base)
        d["claims"][0]["chunk"] = 4096
        self.refused(d, "picked by mode: and only by it")
        d = copy.deepcopy(base)
        d["claims"][0]["posted"]["unit"] = "us"
        self.refused(d, "no unit 'us'")
        d = copy.deepcopy(base)
        d["claims"][0]["posted"]["before"] = "fast"
        self.refused(d, "claims/0/posted")
        d = copy.deepcopy(base)
        d["claims"][0]["sutie"] = "bench_memmap_init"
        self.refused(d, "claims/0")
        d = copy.deepcopy(base)
        d["claims"][1]["after"] = "tmpl_nt_fixd"
        self.refused(d, "no contender 'tmpl_nt_fixd'")
        # each pair where its source is: the kernel's builds in kernel:
        d = copy.deepcopy(base)
        d["claims"][0]["before"] = "kernel"
        self.refused(d, "'kernel' is a build of the kernel's code "
                     "(kernels:), not a strategy of the model")
        d = copy.deepcopy(base)
        d["claims"][0]["kernel"]["after"] = "tmpl_nt_fixed"
        self.refused(d, "kernel: 'tmpl_nt_fixed' is not in "
                     "manifest/strategies.yaml's kernels:")
        d = copy.deepcopy(base)
        d["claims"][0]["kernel"]["before"] = "kernel_seires"
        self.refused(d, "kernel: 'kernel_seires' is not in")
        d = copy.deepcopy(base)
        nocache = next(c for c in d["claims"]
                       if c["suite"] == "bench_nocache_copy")
        nocache["kernel"] = {"before": "kernel", "after": "kernel_series"}
        self.refused(d, "kernel: is for the claims whose contenders are "
                     "strategies")

    def test_contenders(self):
        self.assertEqual(manifest.claim_contenders("bench_memmap_init"),
                         ["slow", "tmpl_memcpy", "tmpl_nt_generic",
                          "tmpl_nt_fixed"])

    def test_both_sources(self):
        """A claim with a kernel: pair is two, the model's and then the
        kernel's, alike but for their contenders."""
        cs = [c for c in manifest.claims() if c["suite"] ==
              "bench_memmap_init"]
        self.assertEqual([c["source"] for c in cs],
                         ["model", "kernel"] * (len(cs) // 2))
        for model, kernel in zip(cs[::2], cs[1::2]):
            self.assertEqual(
                {k: x for k, x in model.items()
                 if k not in ("source", "before", "after")},
                {k: x for k, x in kernel.items()
                 if k not in ("source", "before", "after")})
        self.assertEqual([(c["before"], c["after"]) for c in cs[1::2]],
                         [("kernel", "kernel_series")] * 2
                         + [("kernel_series_memcpy", "kernel_series")]
                         + [("kernel_series_generic", "kernel_series")] * 2)
        self.assertEqual(manifest.claim_values("bench_memmap_init", "mode"),
                         ["fsdax", "devdax2m"])


def d_name(i):
    """The name of the manifest's kernels: entry @i."""
    return manifest.kernels()[i]["name"]


class Refusals(unittest.TestCase):
    """@change applied to the manifest's data must be refused by
    @derive (layouts_from, strategies_from) with @words in the reason."""
    NAME, DERIVE = None, None

    def refused(self, change, words):
        d = data_of(self.NAME)
        change(d)
        with self.assertRaises(manifest.ManifestError) as e:
            type(self).DERIVE(d, self.NAME + ".yaml")
        self.assertIn(words, str(e.exception))


class Layouts(Refusals):
    NAME, DERIVE = "layouts", manifest.layouts_from

    def test_sizes(self):
        self.assertEqual(manifest.layout_sizes(), {
            "PAGE_LAYOUT_64": 64, "PAGE_LAYOUT_80_KMSAN": 80,
            "PAGE_LAYOUT_80_CPUPID": 80, "PAGE_LAYOUT_96": 96})

    def test_refusals(self):
        def lay(d, name):
            return next(x for x in d["layouts"] if x["name"] == name)

        self.refused(lambda d: lay(d, "80-kmsan")["extra"].update(
            KMSAN_ORIGIN=64), "share byte 64")
        self.refused(lambda d: lay(d, "96")["extra"].update(
            KMSAN_SHADOW=68), "not aligned to 8")
        self.refused(lambda d: lay(d, "96").update(size=80),
                     "not inside 80 bytes")
        self.refused(lambda d: lay(d, "80-cpupid").update(size=72),
                     "not a multiple of 16")
        self.refused(lambda d: lay(d, "80-cpupid").update(
            cpupid_in_flags=True), "packed in the flags exactly")
        self.refused(lambda d: lay(d, "96").update(kmsan=False),
                     "kmsan says")
        self.refused(lambda d: lay(d, "80-kmsan").update(option=True),
                     "layout=80 already picks")
        self.refused(lambda d: lay(d, "96")["extra"].update(FLAGS=88),
                     "not a field past the common ones")
        self.refused(lambda d: d["fields"].append(dict(d["fields"][0])),
                     "id 'FLAGS' twice")


class Strategies(Refusals):
    NAME, DERIVE = "strategies", manifest.strategies_from

    def test_claims_per_size(self):
        fixed = next(s for s in manifest.strategies()["strategies"]
                     if s["name"] == "tmpl_nt_fixed")
        self.assertIn(("run", "movnti", 12),
                      manifest.objcode_claims(fixed, 96))
        fill = next(s for s in manifest.strategies()["strategies"]
                    if s["name"] == "fill_avx")
        self.assertEqual(fill["sizes"], [64, 96])
        self.assertIn(("calls", "tmpl_fill_avx_96"),
                      manifest.objcode_claims(fill, 96))
        nt = manifest.nt_copy_functions()
        self.assertIn("tmpl_fill_avx_96", nt)
        self.assertNotIn("tmpl_fill_avx_80", nt)
        self.assertEqual(manifest.layout_set_name(fill["layout_ids"]),
                         "MEMMAP_L_64_96")

    def test_refusals(self):
        def st(d, name):
            return next(x for x in d["strategies"] if x["name"] == name)

        self.refused(lambda d: st(d, "fill_mov").update(nt=True),
                     "claims its drains")
        self.refused(lambda d: st(d, "tmpl_nt_fixed")["objcode"].remove(
            "drains"), "claims its drains")
        self.refused(lambda d: st(d, "fill_avx").update(
            layouts=["64", "112"]), "not distinct ids")
        self.refused(lambda d: st(d, "fill_mov").update(name="slow"),
                     "named twice: slow")
        self.refused(lambda d: d["limits"][0].update(name="kernel"),
                     "named twice: kernel")
        self.refused(lambda d: st(d, "slow").update(variant="memcpy"),
                     "variant none goes with write none")
        self.refused(lambda d: d["kernels"][1].update(name="kernel"),
                     "named twice: kernel")
        self.refused(lambda d: d["kernels"][1].update(patches=None),
                     "the first of kernels: is the kernel as Debian ships")
        self.refused(lambda d: d["kernels"][0].update(
            patches="patches/6.12/series/series"),
            "the first of kernels: is the kernel as Debian ships")
        self.refused(lambda d: d["kernels"][1].update(
            patches="patches/6.12/series/no-such-series"),
            f"{d_name(1)}: patches patches/6.12/series/no-such-series: "
            "No such file")
        self.refused(lambda d: d["kernels"][1].update(through="0009.patch"),
                     f"{d_name(1)}: through: 0009.patch is not in "
                     "patches/6.12/series/series")
        self.refused(lambda d: d["kernels"][0].update(through="0001.patch"),
                     "kernel: through: names a patch of its series file, "
                     "and it has none")
        # a stage that is the whole series: the same code twice
        self.refused(lambda d: d["kernels"][1].update(
            through=os.path.basename(manifest.series_patches(os.path.join(
                manifest.ROOT, "patches/6.12/series/series"))[-1])),
            "the same patch files as")

    def test_kernels(self):
        """Each build's runner and the SHA-256 of its patch files, one
        after another (what tools/kernel-memmap/build computes)."""
        ks = manifest.kernels()
        by = {k["name"]: k for k in ks}
        self.assertEqual(ks[0]["name"], "kernel")
        self.assertEqual(ks[0]["runner"], "kernel-memmap")
        self.assertEqual(by["kernel_series"]["runner"],
                         "kernel-memmap-kernel_series")
        self.assertEqual(ks[0]["patch_files"], [])
        self.assertEqual(ks[0]["patches_sha256"],
                         hashlib.sha256(b"").hexdigest())
        series = by["kernel_series"]["patch_files"]
        self.assertEqual(len(series), 4)
        self.assertTrue(series[0].startswith("patches/6.12/series/0001-"))
        # the stages: the series' first files, through: the last
        for name, n in (("kernel_series_memcpy", 2),
                        ("kernel_series_generic", 3), ("kernel_series", 4)):
            files = by[name]["patch_files"]
            self.assertEqual(files, series[:n])
            whole = b"".join(pathlib.Path(manifest.ROOT, f).read_bytes()
                             for f in files)
            self.assertEqual(by[name]["patches_sha256"],
                             hashlib.sha256(whole).hexdigest())
        self.assertEqual(by["kernel_series_generic"]["patches_shown"],
                         "patches/6.12/series/series through "
                         "0003-mm-use-memcpy_nt-in-zone-device-template-"
                         "copies.patch")
        self.assertIn("kernel_series", manifest.contender_names())

    def test_models(self):
        """Each build names the model's strategy it is measured against,
        its twin the same; the model's must be a loop the model has at
        kernel=6.12 (the kernel's or the series', on the build's
        layouts)."""
        pairs = dict(manifest.model_pairs())
        self.assertEqual(pairs["kernel"], "slow")
        self.assertEqual(pairs["kernel_ret"], "slow")
        self.assertEqual(pairs["kernel_series"], "tmpl_nt_fixed")
        self.assertEqual(pairs["kernel_series_ret"], "tmpl_nt_fixed")
        self.assertEqual(len(pairs), len([n for n, _, _ in
                                          manifest.kernel_contenders(
                                              manifest.kernels())]))
        self.refused(lambda d: d["kernels"][1].update(model="fill_mov"),
                     f"{d_name(1)}: model: fill_mov is not a strategy of "
                     "the kernel or the series")
        self.refused(lambda d: d["kernels"][1].update(model="tmpl_nope"),
                     "model: tmpl_nope is not a strategy")

    def test_plain_return_twins(self):
        """A build's twin with plain returns is a contender of its own
        name (strategy= picks it), runs its build's runner (no entry of
        kernels:, no runner of its own), and its name is no other
        contender's."""
        pairs = manifest.plain_return_pairs()
        self.assertIn(("kernel", "kernel_ret"), pairs)
        self.assertIn(("kernel_series", "kernel_series_ret"), pairs)
        names = manifest.contender_names()
        self.assertLess(names.index("kernel"), names.index("kernel_ret"))
        self.assertNotIn("kernel_ret", [k["name"] for k in
                                        manifest.kernels()])
        self.refused(lambda d: d["kernels"][0].update(
            plain_returns="slow"), "contenders named twice: slow")
        self.refused(lambda d: d["kernels"][1].update(
            plain_returns="kernel_ret"), "contenders named twice: kernel_ret")

    def test_a_series_file_read_as_the_shell_reads_it(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "series")
            with open(path, "w") as f:
                f.write("# a comment\n\na.patch -p1  # why\nb.patch")
            self.assertEqual(manifest.series_patches(path),
                             [os.path.join(d, "a.patch"),
                              os.path.join(d, "b.patch")])
            for bad in ("a.patch\r\n", "/abs/a.patch\n"):
                with open(path, "w", newline="") as f:
                    f.write(bad)
                with self.assertRaises(manifest.ManifestError) as e:
                    manifest.series_patches(path)
                self.assertIn(":1: a patch's name relative to the series "
                              "file", str(e.exception))


if __name__ == "__main__":
    unittest.main()
