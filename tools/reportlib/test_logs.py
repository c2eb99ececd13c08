# SPDX-License-Identifier: GPL-2.0-only
"""Tests of reportlib.logs: reading the sample logs of reportlib.synth
(carriage returns, terminal escapes, indentation, quoted values, a bad
line) and logfmt values. tools/report --selftest runs them, as does
python3 -m unittest discover -s tools/reportlib -t tools
"""
import unittest

from reportlib.logs import LogfmtError, parse_log, parse_logfmt, typed
from reportlib.stats import (
    int_median,
    process_blocks,
    process_medians,
    processes_of,
    samples_of,
)
from reportlib.synth import (
    ZEN5,
    ZEN5_MEMMAP,
    ZEN5_NOCACHE,
    sample_host,
    sample_image_a,
    synth_log,
)


class SampleLogs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.a = sample_image_a()
        cls.h = sample_host()

    def test_every_metric_line_of_the_image_log_is_read(self):
        self.assertEqual(len(self.a.metrics), 6,
                         f"6 metrics in sample A, got {len(self.a.metrics)}")

    def test_indented_metric_lines_are_read(self):
        self.assertEqual(len([r for r in self.h.metrics
                              if r["suite"] == "bench_pollution"]), 3,
                         "indented metric lines")

    def test_a_quoted_header_value_is_unquoted(self):
        self.assertEqual(self.a.header.get("cpu"), "SAMPLE CPU @ 2.00GHz",
                         f"quoted header value, got "
                         f"{self.a.header.get('cpu')!r}")

    def test_values_are_typed(self):
        self.assertTrue(self.a.metrics[1]["median_ns"] == 244280000
                        and isinstance(self.a.metrics[1]["gbps"], float),
                        "typed values")

    def test_quoted_logfmt_values_keep_spaces_and_escaped_quotes(self):
        custom = [r for r in self.h.metrics if r["suite"] == "custom_probe"]
        self.assertTrue(custom and custom[0]["what"] == "two words"
                        and custom[0]["quote"] == 'say "hi"',
                        f"quoted logfmt values, got {custom}")

    def test_a_bad_line_is_a_warning(self):
        self.assertTrue(len(self.h.warnings) == 1
                        and "unterminated" in self.h.warnings[0],
                        f"a bad line is a warning, got {self.h.warnings}")

    def test_failed_count_comes_from_the_summary_line(self):
        self.assertEqual(self.h.failed, 1,
                         "failed count from the summary line")

    def test_eff_mhz_only_where_measured(self):
        self.assertEqual(self.a.metrics[0].get("eff_mhz"), 2401,
                         f"eff_mhz where measured, got "
                         f"{self.a.metrics[0].get('eff_mhz')!r}")
        self.assertTrue(all("eff_mhz" not in r for r in self.h.metrics),
                        "eff_mhz absent where nothing measured it")

    def test_the_pollution_lines_sample_series_are_lists(self):
        pol = next(r for r in self.h.metrics
                   if r.get("strategy") == "tmpl_nt_fixed"
                   and r.get("buffer") == "l2")
        self.assertTrue(pol["warm_samples_ns"] == [35000, 34000, 36000, 35500]
                        and pol["cold_samples_ns"][0] == 300000
                        and pol["samples_ns"][-1] == 40500,
                        "the pollution line's warm, cold and after series "
                        "are lists")


class CutLog(unittest.TestCase):
    """A capture that stopped mid-line: its last line is not read, and
    the log says where it was cut."""

    def test_a_log_cut_mid_line_drops_its_last_line_and_says_so(self):
        whole = synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE)
        lines = whole.splitlines()
        last = max(i for i, x in enumerate(lines) if "# metric " in x)
        # Cut inside the last metric line's median_ns= value.
        at = lines[last].index("median_ns=") + len("median_ns=") + 2
        cut = "\n".join(lines[:last] + [lines[last][:at]])
        full = parse_log(whole, "w", "W")
        log = parse_log(cut, "c", "C")
        self.assertEqual(len(log.metrics), len(full.metrics) - 1)
        self.assertTrue(any(f"c:{last + 1}: the log ends mid-line" in w
                            for w in log.warnings), log.warnings)
        self.assertEqual(full.warnings, [])

    def test_a_log_whose_last_line_ends_is_read_whole(self):
        whole = synth_log(5, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE)
        lines = whole.splitlines()
        last = max(i for i, x in enumerate(lines) if "# metric " in x)
        log = parse_log("\r\n".join(lines[:last + 1]) + "\r\n", "e", "E")
        self.assertEqual(len(log.metrics),
                         len(parse_log(whole, "w", "W").metrics))
        self.assertEqual(log.warnings, [])


class Values(unittest.TestCase):
    def test_junk_after_a_quoted_value_is_an_error(self):
        with self.assertRaises(LogfmtError,
                               msg="junk after a quoted value is an error"):
            parse_logfmt('a="x"b')

    def test_numbers_beyond_64_bits_stay_text(self):
        # Found by tests/fuzz/readers_fuzz.py: a 400-digit value made
        # fmt_bytes() overflow a float.
        self.assertTrue(typed("9" * 400) == "9" * 400
                        and typed("18446744073709551615") == 2 ** 64 - 1
                        and typed("-12") == -12,
                        "numbers beyond 64 bits stay text (found by "
                        "readers_fuzz)")

    def test_samples_beyond_64_bits_are_no_list(self):
        # Found by tests/fuzz/readers_fuzz.py: a sample of 400 digits
        # made a ratio of two medians overflow a float.
        line = ("# metric suite=bench_memmap_init strategy=kernel "
                "median_ns=5 samples_ns=4,{},6")
        log = parse_log(line.format("9" * 400) + "\n", "f", "F")
        self.assertNotIn("samples_ns", log.metrics[0])
        self.assertIn("samples_ns= is not a list of integers",
                      log.warnings[0])
        log = parse_log(line.format(2 ** 64 - 1) + "\n", "f", "F")
        self.assertEqual(log.metrics[0]["samples_ns"], [4, 2 ** 64 - 1, 6])

    def test_a_line_of_several_processes(self):
        text = synth_log(2, ZEN5, ZEN5_MEMMAP[:1], n=4, cv=0.05,
                         processes=3, machine_cv=0.1)
        log = parse_log(text, "p", "P")
        rec = log.metrics[0]
        self.assertEqual(rec["processes"], 3)
        self.assertTrue(isinstance(rec["proc_medians_ns"], list)
                        and len(rec["proc_medians_ns"]) == 3
                        and isinstance(rec["proc_spread"], float), rec)
        self.assertEqual(len(samples_of(rec)), 12)
        self.assertEqual(process_blocks(rec)[1], rec["samples_ns"][4:8])
        self.assertEqual(process_medians(rec), rec["proc_medians_ns"])
        # The "# process k/P" lines are diagnostics: nothing is read.
        self.assertIn("# process 2/3 seed=", text)
        self.assertEqual((len(log.metrics), log.own_verdicts, log.warnings),
                         (1, [], []))

    def test_a_line_without_processes_is_one_process(self):
        rec = sample_image_a().metrics[1]
        self.assertEqual(processes_of(rec), 1)
        self.assertIsNone(process_blocks(rec))
        self.assertEqual(int_median([1, 2, 4, 9]), 3)

    def test_samples_ns_is_read_as_a_list(self):
        a = parse_log(synth_log(1, ZEN5, ZEN5_MEMMAP, ZEN5_NOCACHE), "a", "A")
        self.assertTrue(len(a.metrics) == 6
                        and len(samples_of(a.metrics[0])) == 15,
                        "samples_ns= parsed as a list")


if __name__ == "__main__":
    unittest.main()
