# SPDX-License-Identifier: GPL-2.0-only
"""The manifests (manifest/*.yaml): the one definition of each fact that
the C build, the Python tools and docs/manifest.md all use.

Each file is read once, checked against its schema (jsonschema) and by
the cross-references no schema can state, then turned into the tables
the tools want. A manifest that does not hold stops the tool naming the
file, the entry and what is wrong: a table built from a bad manifest
would be wrong everywhere at once.
"""
import decimal
import functools
import hashlib
import os

import jsonschema
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


class ManifestError(Exception):
    pass


def _closed(schema):
    """@schema with every object that lists its properties closed to any
    other: a misspelt key in a manifest is an error, not a key ignored."""
    if isinstance(schema, list):
        return [_closed(x) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _closed(v) for k, v in schema.items()}
    if "properties" in schema and "additionalProperties" not in schema:
        out["additionalProperties"] = False
    return out


_NAME = {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"}
_FIGURE = {"type": "string", "pattern": r"^[0-9]+(\.[0-9]+)?$"}

CLAIMS_SCHEMA = _closed({
    "type": "object",
    "required": ["postings", "suites", "units", "claims"],
    "properties": {
        "postings": {"type": "object", "minProperties": 1,
                     "additionalProperties": {"type": "string",
                                              "minLength": 1}},
        "suites": {"type": "object", "minProperties": 1,
                   "additionalProperties": {
                       "type": "object",
                       "required": ["key", "option"],
                       "properties": {
                           "key": _NAME,
                           "option": {"enum": ["mode", "chunk"]}}}},
        "units": {"type": "object", "minProperties": 1,
                  "additionalProperties": {"enum": ["time", "rate"]}},
        "claims": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["posting", "what", "suite", "before", "after",
                         "posted"],
            "properties": {
                "posting": _NAME,
                "what": {"type": "string", "minLength": 1},
                "suite": _NAME,
                "mode": _NAME,
                "chunk": {"type": "integer", "minimum": 1},
                "before": {"oneOf": [_NAME, {"type": "null"}]},
                "after": _NAME,
                "kernel": {"type": "object", "required": ["before", "after"],
                           "properties": {"before": _NAME,
                                          "after": _NAME}},
                "posted": {"oneOf": [
                    {"type": "object",
                     "required": ["before", "after", "unit"],
                     "properties": {"before": _FIGURE, "after": _FIGURE,
                                    "unit": {"type": "string"}}},
                    {"type": "object",
                     "required": ["text"],
                     "properties": {"text": {"type": "string",
                                             "minLength": 1}}}]}}}},
    },
})


def path_of(name):
    return os.path.join(ROOT, "manifest", name + ".yaml")


def shown(path):
    """@path as messages name it: relative to the tree when inside it."""
    rel = os.path.relpath(path, ROOT)
    return path if rel.startswith("..") else rel


def read(name, schema, path=None):
    """manifest/@name.yaml (or @path), checked against @schema."""
    path = path or path_of(name)
    try:
        with open(path) as f:
            data = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise ManifestError(f"{shown(path)}: {e}") from None
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError as e:
        where = "/".join(str(p) for p in e.absolute_path) or "top"
        raise ManifestError(f"{shown(path)}: {where}: {e.message}") \
            from None
    return data


def _scaled(a, b):
    """Two decimal figures as integers with the same scale:
    ("244.28", "96.79") -> (24428, 9679)."""
    da, db = decimal.Decimal(a), decimal.Decimal(b)
    places = max(-da.as_tuple().exponent, -db.as_tuple().exponent, 0)
    return int(da.scaleb(places)), int(db.scaleb(places))


def _check_pair(where, c, kernel_names):
    """A claim's contenders named where they are: the model's pair among
    the strategies, the kernel's (c["kernel"]) among kernels:."""
    names = contender_names()
    pair = [x for x in (c["before"], c["after"]) if x is not None]
    bad = [x for x in pair if x in kernel_names]
    if bad:
        raise ManifestError(f"{where}: {', '.join(map(repr, bad))} is a "
                            "build of the kernel's code (kernels:), not a "
                            "strategy of the model: its pair goes in "
                            "kernel:")
    bad = [x for x in pair if x not in names]
    if bad:
        raise ManifestError(f"{where}: no contender "
                            f"{', '.join(map(repr, bad))} in "
                            "manifest/strategies.yaml")
    if "kernel" in c:
        bad = [x for x in (c["kernel"]["before"], c["kernel"]["after"])
               if x not in kernel_names]
        if bad:
            raise ManifestError(f"{where}: kernel: "
                                f"{', '.join(map(repr, bad))} is not in "
                                "manifest/strategies.yaml's kernels:")


def claims_from(data, path):
    """The claims of @data (claims.yaml, read), in order, each a dict:
    subject, what, suite, key (the metric key naming a contender), mode
    or chunk, source (what the pair is judged from: "model", the model's
    strategies or, bench_nocache_copy, the project's copy methods;
    "kernel", builds of the kernel's own compiled code from
    manifest/strategies.yaml's kernels:), before, after, posted (the
    figures as one line), ratio (the posted speed-up as a float, None without a figure)
    and num, den (the same as integers; 0, 0 without a figure). A claim
    with a kernel: pair is two, the model's (source model) and then the
    kernel's (source kernel), alike but for their contenders."""
    out = []
    for i, c in enumerate(data["claims"]):
        where = f"{path}: claims/{i} ({c['what']!r})"
        if c["posting"] not in data["postings"]:
            raise ManifestError(f"{where}: no posting {c['posting']!r} "
                                "in postings")
        suite = data["suites"].get(c["suite"])
        if suite is None:
            raise ManifestError(f"{where}: no suite {c['suite']!r} in "
                                "suites")
        option = suite["option"]
        others = {"mode", "chunk"} - {option}
        if option not in c or others & set(c):
            raise ManifestError(f"{where}: {c['suite']} claims are picked "
                                f"by {option}: and only by it")
        if suite["key"] == "strategy":
            # (claims are read before the strategies they name)
            _check_pair(where, c, [k["name"] for k in kernels()])
        elif "kernel" in c:
            raise ManifestError(f"{where}: kernel: is for the claims whose "
                                "contenders are strategies")
        claim = {"subject": data["postings"][c["posting"]],
                 "what": c["what"], "suite": c["suite"], "key": suite["key"],
                 option: c[option], "source": "model",
                 "before": c["before"], "after": c["after"]}
        posted = c["posted"]
        if "text" in posted:
            claim.update(posted=posted["text"], ratio=None, num=0, den=0)
        else:
            unit = posted["unit"]
            way = data["units"].get(unit)
            if way is None:
                raise ManifestError(f"{where}: no unit {unit!r} in units")
            b, a = posted["before"], posted["after"]
            num, den = _scaled(b, a) if way == "time" else _scaled(a, b)
            claim.update(posted=f"{b} {unit} -> {a} {unit}",
                         ratio=num / den, num=num, den=den)
        out.append(claim)
        if "kernel" in c:
            out.append({**claim, "source": "kernel",
                        "before": c["kernel"]["before"],
                        "after": c["kernel"]["after"]})
    return out


@functools.lru_cache(maxsize=None)
def claims(path=None):
    """The posted claims (manifest/claims.yaml)."""
    path = path or path_of("claims")
    return claims_from(read("claims", CLAIMS_SCHEMA, path), shown(path))


def claim_contenders(suite):
    """The contenders the model's pairs of the claims of @suite name (the
    kernel's builds need runners a run may not have), in the strategies'
    order for bench_memmap_init (None, the copy-then-clean method, left
    out)."""
    named = {x for c in claims() if c["suite"] == suite
             and c["source"] == "model"
             for x in (c["before"], c["after"]) if x}
    order = contender_names()
    return sorted(named, key=lambda x: (x not in order,
                                        order.index(x) if x in order else x))


def claim_values(suite, option):
    """The values of @option (mode, chunk) the claims of @suite pick, in
    the claims' order."""
    out = []
    for c in claims():
        if c["suite"] == suite and c[option] not in out:
            out.append(c[option])
    return out


def claim_run_options(suites=("bench_memmap_init", "bench_nocache_copy")):
    """The ntbench words of a run that measures every claim: @suites,
    the claims' contenders and modes (and copy-then-clean, the nocache
    claims' baseline), in a small namespace."""
    return [f"suite={','.join(suites)}", "runs=6", "namespace=16M",
            "layout=64",
            "mode=" + ",".join(claim_values("bench_memmap_init", "mode")),
            "strategy=" + ",".join(
                claim_contenders("bench_memmap_init") + ["copy_clean*"]
                + claim_contenders("bench_nocache_copy"))]


_ID = {"type": "string", "pattern": r"^[0-9A-Z][0-9A-Z_]*$"}

LAYOUTS_SCHEMA = _closed({
    "type": "object",
    "required": ["fields", "common", "layouts"],
    "properties": {
        "fields": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["id", "name", "width"],
            "properties": {"id": _ID,
                           "name": {"type": "string", "minLength": 1},
                           "width": {"enum": [1, 2, 4, 8]}}}},
        "common": {"type": "object", "minProperties": 1,
                   "additionalProperties": {"type": "integer",
                                            "minimum": 0}},
        "layouts": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["id", "name", "why", "size", "extra",
                         "cpupid_in_flags", "kmsan", "option"],
            "properties": {
                "id": _ID,
                "name": {"type": "string", "pattern": r"^[0-9a-z-]+$"},
                "why": {"type": "string", "minLength": 1},
                "size": {"type": "integer", "minimum": 64},
                "extra": {"type": "object", "additionalProperties": {
                    "type": "integer", "minimum": 64}},
                "cpupid_in_flags": {"type": "boolean"},
                "kmsan": {"type": "boolean"},
                "option": {"type": "boolean"}}}},
    },
})


def _unique(items, key, where):
    seen = set()
    for x in items:
        if x[key] in seen:
            raise ManifestError(f"{where}: {key} {x[key]!r} twice")
        seen.add(x[key])


def layouts_from(data, path):
    """@data (layouts.yaml, read) checked beyond its schema: each layout's
    fields inside it, disjoint and aligned to their width, its size a
    multiple of 16 (struct page's alignment), its flags what its fields
    say, one layout per size for layout=. Each layout gains "offsets":
    {field id: offset} over all its fields."""
    fields = {f["id"]: f for f in data["fields"]}
    _unique(data["fields"], "id", f"{path}: fields")
    _unique(data["fields"], "name", f"{path}: fields")
    _unique(data["layouts"], "id", f"{path}: layouts")
    _unique(data["layouts"], "name", f"{path}: layouts")
    for fid in data["common"]:
        if fid not in fields:
            raise ManifestError(f"{path}: common: no field {fid!r}")
    by_size = {}
    for lay in data["layouts"]:
        where = f"{path}: layout {lay['name']}"
        offsets = dict(data["common"])
        for fid, off in lay["extra"].items():
            if fid not in fields or fid in offsets:
                raise ManifestError(f"{where}: extra: {fid!r} is not a "
                                    "field past the common ones")
            offsets[fid] = off
        owner = {}
        for fid, off in offsets.items():
            width = fields[fid]["width"]
            if off % width or off + width > lay["size"]:
                raise ManifestError(f"{where}: {fid} at {off} is not "
                                    f"aligned to {width} or not inside "
                                    f"{lay['size']} bytes")
            for b in range(off, off + width):
                if b in owner:
                    raise ManifestError(f"{where}: {fid} and {owner[b]} "
                                        f"share byte {b}")
                owner[b] = fid
        if lay["size"] % 16:
            raise ManifestError(f"{where}: size {lay['size']} is not a "
                                "multiple of 16")
        if lay["cpupid_in_flags"] == ("LAST_CPUPID" in offsets):
            raise ManifestError(f"{where}: last_cpupid is packed in the "
                                "flags exactly when it has no field")
        if lay["kmsan"] != ("KMSAN_SHADOW" in offsets):
            raise ManifestError(f"{where}: kmsan says whether the layout "
                                "has KMSAN's fields")
        if lay["option"]:
            if lay["size"] in by_size:
                raise ManifestError(f"{where}: layout={lay['size']} "
                                    f"already picks {by_size[lay['size']]}")
            by_size[lay["size"]] = lay["name"]
        lay["offsets"] = offsets
    return data


@functools.lru_cache(maxsize=None)
def layouts(path=None):
    """The struct page layouts (manifest/layouts.yaml)."""
    path = path or path_of("layouts")
    return layouts_from(read("layouts", LAYOUTS_SCHEMA, path), shown(path))


def layout_sizes():
    """{"PAGE_LAYOUT_<id>": size} for every layout."""
    return {"PAGE_LAYOUT_" + lay["id"]: lay["size"]
            for lay in layouts()["layouts"]}


_CLAIM_NAMES = ["cached", "no_weak_store", "no_fence", "no_nt_copy_call",
                "drains", "kernel_slow_shape"]
_CLAIM = {"oneOf": [
    {"enum": _CLAIM_NAMES},
    {"type": "object", "minProperties": 1, "maxProperties": 1,
     "properties": {
         "calls": {"type": "string"},
         "no_calls": {"type": "array", "minItems": 1,
                      "items": {"type": "string"}},
         "reaches": {"type": "string"},
         "inline": {"type": "string"},
         "run": {"type": "array", "minItems": 2, "maxItems": 2,
                 "items": {"type": ["string", "integer"]}}}}]}
_LAYOUT_LIST = {"oneOf": [{"const": "all"},
                          {"type": "array", "minItems": 1,
                           "items": {"type": "string"}}]}

STRATEGIES_SCHEMA = _closed({
    "type": "object",
    "required": ["strategies", "kernels", "limits"],
    "properties": {
        "strategies": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["name", "write", "variant", "nt",
                         "layouts", "origin", "desc", "objcode"],
            "properties": {
                "name": _NAME,
                "write": {"enum": ["none", "copy", "copy_sized", "fill"]},
                "variant": _NAME, "nt": {"type": "boolean"},
                "layouts": _LAYOUT_LIST,
                "origin": {"enum": ["kernel", "series", "own"]},
                "desc": {"type": "string", "minLength": 1},
                "objcode": {"type": "array", "minItems": 1,
                            "items": _CLAIM},
                "nt_copy": {"type": "array",
                            "items": {"type": "string"}}}}},
        "kernels": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["name", "layouts", "patches", "model", "desc"],
            "properties": {"name": _NAME, "layouts": _LAYOUT_LIST,
                           "model": _NAME,
                           "patches": {"oneOf": [
                               {"type": "null"},
                               {"type": "string", "minLength": 1}]},
                           "through": {"type": "string", "minLength": 1},
                           "plain_returns": _NAME,
                           "desc": {"type": "string", "minLength": 1}}}},
        "limits": {"type": "array", "items": {
            "type": "object",
            "required": ["name", "fill", "desc"],
            "properties": {"name": _NAME,
                           "fill": {"oneOf": [_NAME, {"type": "null"}]},
                           "desc": {"type": "string"}}}},
    },
})


def _layout_ids(spec, where):
    """@spec (all, or a list of layout ids) as layout ids in the layouts'
    order."""
    order = [lay["id"] for lay in layouts()["layouts"]]
    ids = order if spec == "all" else spec
    bad = [i for i in ids if i not in order]
    if bad or len(set(ids)) != len(ids):
        raise ManifestError(f"{where}: layouts {ids}: not distinct ids of "
                            "manifest/layouts.yaml")
    return sorted(ids, key=order.index)


def layout_set_name(ids):
    """MEMMAP_L_ALL, or MEMMAP_L_<id>_<id>... for a subset."""
    order = [lay["id"] for lay in layouts()["layouts"]]
    if ids == order:
        return "MEMMAP_L_ALL"
    return "MEMMAP_L_" + "_".join(ids)


def strategies_from(data, path):
    """@data (strategies.yaml, read) checked beyond its schema; each
    strategy gains "copy" (MEMMAP_<copy>, its name in capitals),
    "layout_ids" and "sizes" (its struct page sizes)."""
    sizes = {lay["id"]: lay["size"] for lay in layouts()["layouts"]}
    names = [s["name"] for s in data["strategies"]] + \
        [name for name, _, _ in kernel_contenders(data["kernels"])] + \
        [f["name"] for f in data["limits"]]
    data["contenders"] = names
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ManifestError(f"{path}: contenders named twice: "
                            + ", ".join(dup))
    for s in data["strategies"] + data["kernels"]:
        where = f"{path}: {s['name']}"
        s["layout_ids"] = _layout_ids(s["layouts"], where)
        s["sizes"] = sorted({sizes[i] for i in s["layout_ids"]})
    for i, k in enumerate(data["kernels"]):
        _kernel_build(k, i, f"{path}: {k['name']}")
        # (a second runner of the same code would be a duplicate contender)
        same = [o["name"] for o in data["kernels"][:i]
                if o["patch_files"] == k["patch_files"]]
        if same:
            raise ManifestError(f"{path}: {k['name']}: the same patch "
                                f"files as {same[0]}")
    by_name = {s["name"]: s for s in data["strategies"]}
    for k in data["kernels"]:
        m = by_name.get(k["model"])
        if m is None or m["origin"] == "own" or \
                not set(k["layout_ids"]) <= set(m["layout_ids"]):
            raise ManifestError(f"{path}: {k['name']}: model: "
                                f"{k['model']} is not a strategy of the "
                                "kernel or the series on its layouts (the "
                                "model's loops at kernel=6.12)")
    for s in data["strategies"]:
        where = f"{path}: {s['name']}"
        s["copy"] = s["name"].upper()
        if (s["write"] == "none") != (s["variant"] == "none"):
            raise ManifestError(f"{where}: variant none goes with write "
                                "none, and only with it")
        if s["nt"] != ("drains" in s["objcode"]):
            raise ManifestError(f"{where}: a strategy with weakly ordered "
                                "stores (nt) claims its drains, and only "
                                "such a strategy")
    return data


def series_patches(series):
    """The patch files a quilt series file lists, in order: the first
    word of each line, relative to the file's directory; # starts a
    comment. The one reader of a series file: the shell tools take the
    files from tools/manifest kernels."""
    out = []
    with open(series, newline="") as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            # a name quilt would read otherwise: refused
            if words and ("\r" in line or os.path.isabs(words[0])):
                raise ManifestError(f"{shown(series)}:{n}: a patch's name "
                                    "relative to the series file, on a "
                                    "line ending in LF alone")
            if words:
                out.append(os.path.join(os.path.dirname(series), words[0]))
    return out


def patches_sha256(files):
    """The SHA-256 of @files' bytes, one after another in the order they
    apply: what a kernel memmap runner reports it was built from
    (tools/kernel-memmap/build computes it alike); no files, that of
    nothing."""
    h = hashlib.sha256()
    for name in files:
        with open(name, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _kernel_build(k, index, where):
    """A kernels: entry gains "runner" (its file beside ntbench),
    "patch_files" (relative to the tree: its series file's, or those up
    to and including through:, a stage of the series), "patches_shown"
    (how messages name them) and "patches_sha256"."""
    if (index == 0) != (k["patches"] is None):
        raise ManifestError(f"{where}: the first of kernels: is the kernel "
                            "as Debian ships it (patches: null), and only "
                            "the first")
    if k["patches"] is None and "through" in k:
        raise ManifestError(f"{where}: through: names a patch of its "
                            "series file, and it has none")
    k["runner"] = "kernel-memmap" + ("" if index == 0 else f"-{k['name']}")
    k["patches_shown"] = k["patches"]
    files = []
    if k["patches"] is not None:
        series = os.path.join(ROOT, k["patches"])
        try:
            files = series_patches(series)
        except OSError as e:
            raise ManifestError(f"{where}: patches {k['patches']}: "
                                f"{e.strerror}") from None
        if not files:
            raise ManifestError(f"{where}: patches {k['patches']}: lists "
                                "no patch")
        if "through" in k:
            names = [os.path.basename(f) for f in files]
            if k["through"] not in names:
                raise ManifestError(f"{where}: through: {k['through']} is "
                                    f"not in {k['patches']}")
            files = files[:names.index(k["through"]) + 1]
            k["patches_shown"] = f"{k['patches']} through {k['through']}"
    k["patch_files"] = [os.path.relpath(f, ROOT) for f in files]
    try:
        k["patches_sha256"] = patches_sha256(files)
    except OSError as e:
        raise ManifestError(f"{where}: patches {k['patches']}: "
                            f"{e.filename}: {e.strerror}") from None


@functools.lru_cache(maxsize=None)
def strategies(path=None):
    """Every contender (manifest/strategies.yaml)."""
    path = path or path_of("strategies")
    return strategies_from(read("strategies", STRATEGIES_SCHEMA, path),
                           shown(path))


def kernels():
    """The kernel's builds (manifest/strategies.yaml's kernels:), the
    kernel as Debian ships it first."""
    return strategies()["kernels"]


def kernel_contenders(builds):
    """(name, build, twin) for each of @builds (kernels: entries) and,
    right after it, its plain_returns: twin (twin True): the kernel's
    contenders in the order the C list and the docs give them."""
    for k in builds:
        yield k["name"], k, False
        if "plain_returns" in k:
            yield k["plain_returns"], k, True


def plain_return_pairs():
    """(build, its twin with plain returns) for each kernels: entry with
    plain_returns:, in the manifest's order: the pairs a "# mitigation"
    line judges."""
    return [(k["name"], k["plain_returns"]) for k in kernels()
            if "plain_returns" in k]


def model_pairs():
    """(kernel code, the model's strategy it is set against) for each of
    the kernel's contenders in the manifest's order: each kernels: entry
    with its model:, and its plain_returns: twin with the same model (the
    pairs a "# model_over_kernel" line judges)."""
    return [(name, k["model"])
            for name, k, _ in kernel_contenders(kernels())]


def contender_names():
    """Every name strategy= can pick, in the manifest's order."""
    return strategies()["contenders"]


def _fmt(text, size):
    return text.format(size=size, words=size // 8) \
        if isinstance(text, str) else text


def objcode_claims(strategy, size):
    """The object-code claims of @strategy's loop for @size-byte struct
    pages, as (kind, args...) with {size} and {words} filled in: named
    claims stay names (tools/check-objcode gives them their meaning)."""
    out = []
    for c in strategy["objcode"]:
        if isinstance(c, str):
            out.append((c,))
            continue
        (kind, arg), = c.items()
        if kind == "run":
            out.append((kind, _fmt(arg[0], size), int(_fmt(arg[1], size))))
        elif kind == "no_calls":
            out.append((kind, tuple(_fmt(a, size) for a in arg)))
        else:
            out.append((kind, _fmt(arg, size)))
    return out


def nt_copy_functions():
    """The functions the strategies copy through out of line with weakly
    ordered stores, for every size each is compiled for."""
    return {_fmt(f, size) for s in strategies()["strategies"]
            for f in s.get("nt_copy", []) for size in s["sizes"]}


# The scopes of a verdict (what replicates), in the order of lib/verdict.h's
# enum verdict_scope.
VERDICT_SCOPES = ("processes", "one-process", "one-boot", "rounds")
# The words lib/verdict.c judges by name (its enum verdict_word): the
# manifest must name each, in this order.
VERDICT_WORD_NAMES = ("confirmed", "beyond", "short", "faster", "reversed",
                      "split", "not_confirmed", "untested", "too_few")

_WORD = {"type": "string", "pattern": r"^[a-z][A-Za-z ,'-]*[A-Za-z]$"}

VERDICTS_SCHEMA = _closed({
    "type": "object",
    "required": ["words"],
    "properties": {
        "words": {"type": "array", "minItems": 1, "items": {
            "type": "object",
            "required": ["name", "when", *VERDICT_SCOPES],
            "properties": {"name": _NAME,
                           "when": {"type": "string", "minLength": 1},
                           **{s: _WORD for s in VERDICT_SCOPES}}}}},
})


def verdict_words_from(data, path):
    """The words of @data (verdicts.yaml, read), in order, each a dict:
    name, when and the word of each scope (VERDICT_SCOPES). The names
    must be VERDICT_WORD_NAMES, in that order (the C enum's); a word of
    one scope must not be another word's of any scope, or a line's word
    would not say which it is."""
    words = data["words"]
    names = tuple(w["name"] for w in words)
    if names != VERDICT_WORD_NAMES:
        raise ManifestError(f"{path}: words: the names {', '.join(names)}; "
                            f"lib/verdict.c judges "
                            f"{', '.join(VERDICT_WORD_NAMES)}, in that "
                            f"order")
    owner = {}
    for w in words:
        for s in VERDICT_SCOPES:
            other = owner.setdefault(w[s], w["name"])
            if other != w["name"]:
                raise ManifestError(f"{path}: words: '{w[s]}' is the word "
                                    f"of both {other} and {w['name']}")
    return words


@functools.lru_cache(maxsize=None)
def verdict_words(path=None):
    """The verdicts' words (manifest/verdicts.yaml)."""
    path = path or path_of("verdicts")
    return verdict_words_from(read("verdicts", VERDICTS_SCHEMA, path),
                              shown(path))
