# SPDX-License-Identifier: GPL-2.0-only
"""tools/report --check-verdicts: every line a log printed about its own
results ("# verdict", "# state", "# state-verdict", "# follows",
"# vs_slow", "# model_over_kernel" and "# mitigation") held to what its
metric lines give, by the modules that compute them (reportlib.verdicts,
reportlib.model_over_kernel, reportlib.mitigation)."""
from reportlib.logs import OWN_LINES
from reportlib.mitigation import check as check_mitigations
from reportlib.model_over_kernel import check as check_model_over_kernel
from reportlib.verdicts import check_verdicts


def problems(log):
    """[problem] between @log's own lines and its metric lines."""
    return (check_verdicts(log) + check_model_over_kernel(log)
            + check_mitigations(log))


def check_main(logs):
    """0 when every log's own lines agree with its metric lines, else 1;
    a log with none of them is a failure (nothing was checked)."""
    status = 0
    for log in logs:
        counts = [(len(log.own_verdicts), "verdict")] + [
            (len(getattr(log, attr)), prefix[2:-1])
            for prefix, attr in OWN_LINES]
        if not any(n for n, _ in counts):
            print(f"report: {log.name}: none of its own lines "
                  f"('# verdict', '# model_over_kernel', ...)")
            status = 1
            continue
        found = problems(log)
        for text in found:
            print(f"report: {log.name}: {text}")
        if found:
            status = 1
            continue
        said = [f"{n} {what}" for n, what in counts if n]
        print(f"report: {log.name}: its "
              + (", ".join(said[:-1]) + " and " if len(said) > 1 else "")
              + f"{said[-1]} lines agree with the metric lines")
    return status
