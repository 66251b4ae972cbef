"""Points of a sweep: grids, lists, the reproductions' own points, ids."""
import csv
import hashlib
import io
import itertools
import json
import re

# The points each reproduction knows, and their defaults (those of
# `neurogo repro NAME`): spa-memory sweeps neurons per dimension × seeds
# (the NengoDL paper, Fig. 9: 5, 10, 15, 20 neurons per dimension, three
# seeds: 12 training runs), spiking-mnist sweeps seeds.
REPRO_DEFAULTS = {
    "spa-memory": {"neurons": [5, 10, 15, 20], "seed": [0, 1, 2]},
    "spiking-mnist": {"seed": [0]},
}


def parse_value(s):
    """A parameter value from the command line: an int, a float, true or
    false, a JSON list or object, or else the text itself."""
    t = s.strip()
    if t in ("true", "false"):
        return t == "true"
    if re.fullmatch(r"[-+]?\d+", t):
        return int(t)
    try:
        f = float(t)
    except ValueError:
        pass
    else:
        if t.lower() not in ("nan", "inf", "-inf", "+inf", "infinity"):
            return f
    if t.startswith(("[", "{", '"')):
        try:
            return json.loads(t)
        except ValueError:
            pass
    return s


def grid(axes, fixed=None):
    """The Cartesian product of axes (name → list of values), in order:
    the last axis varies fastest. fixed (name → value) is added to every
    point."""
    names = list(axes)
    for n in names:
        if not isinstance(axes[n], (list, tuple)) or not axes[n]:
            raise ValueError(f"grid axis {n!r} needs a non-empty list of values, not {axes[n]!r}")
    out = []
    for combo in itertools.product(*(axes[n] for n in names)):
        p = dict(fixed or {})
        p.update(zip(names, combo))
        out.append(p)
    return out


def parse_grid_arg(arg):
    """NAME=V1,V2,… → (NAME, [values]); a value that is JSON (a list in
    brackets) is one value: NAME=[1,2] stays one list."""
    if "=" not in arg:
        raise ValueError(f"--grid {arg!r}: expected NAME=V1,V2,…")
    name, rest = arg.split("=", 1)
    name = name.strip()
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        raise ValueError(f"--grid {arg!r}: {name!r} is not a parameter name")
    if rest.strip().startswith(("[", "{")):
        return name, [parse_value(rest)]
    vals = [parse_value(v) for v in rest.split(",") if v.strip() != ""]
    if not vals:
        raise ValueError(f"--grid {arg!r}: no values")
    return name, vals


def read_points(text, name="points"):
    """Points from a JSON list of objects or a CSV table with a header
    (values parsed as on the command line)."""
    t = text.lstrip()
    if t.startswith("["):
        pts = json.loads(t)
        if not all(isinstance(p, dict) for p in pts):
            raise ValueError(f"{name}: a JSON points file is a list of objects")
        return pts
    rows = list(csv.DictReader(io.StringIO(text)))
    if not rows:
        raise ValueError(f"{name}: no points (a JSON list of objects, or CSV with a header line)")
    return [{k.strip(): parse_value(v) for k, v in r.items() if k} for r in rows]


def repro_points(name, neurons=None, seeds=None):
    """The points of reproduction name: spa-memory → neurons × seed,
    spiking-mnist → seed. seeds is a count (0 … seeds−1) or a list."""
    if name not in REPRO_DEFAULTS:
        raise ValueError(f"unknown reproduction {name!r} (sweepable: {', '.join(REPRO_DEFAULTS)})")
    axes = {k: list(v) for k, v in REPRO_DEFAULTS[name].items()}
    if seeds is not None:
        axes["seed"] = list(range(seeds)) if isinstance(seeds, int) else list(seeds)
    if neurons is not None:
        if name != "spa-memory":
            raise ValueError(f"{name} has no neurons axis")
        axes["neurons"] = list(neurons)
    return grid(axes)


def canonical(params):
    """The parameters as canonical JSON (sorted keys, no spaces): what a
    point id hashes."""
    return json.dumps(params, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def point_id(params):
    """A stable, readable folder name for a point: its sorted parameters,
    shortened and made safe for paths, then 10 hex digits of the SHA-256 of
    their canonical JSON (so the same parameters always give the same id,
    whatever their order)."""
    h = hashlib.sha256(canonical(params).encode()).hexdigest()[:10]
    parts = []
    for k in sorted(params):
        v = params[k]
        v = json.dumps(v) if isinstance(v, (list, dict)) else str(v)
        parts.append(f"{k}-{v}")
    slug = re.sub(r"[^A-Za-z0-9.+-]+", "_", "_".join(parts))
    slug = re.sub(r"\.{2,}", ".", slug).strip("_.")[:60]
    return f"{slug}-{h}" if slug else h
