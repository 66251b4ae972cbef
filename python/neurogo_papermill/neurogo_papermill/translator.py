"""Go translator for papermill parameters."""
import math
import re

try:
    from papermill.translators import Translator
except ImportError:  # papermill not installed: keep go_literal usable
    Translator = object


def _go_string(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\x{o:02x}")
        elif 0xD800 <= o <= 0xDFFF:  # lone surrogate: not valid UTF-8
            out.append("\\uFFFD")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _go_float(f):
    if math.isnan(f):
        return "math.NaN()"
    if math.isinf(f):
        return "math.Inf(1)" if f > 0 else "math.Inf(-1)"
    r = repr(float(f))
    if not any(c in r for c in ".en"):
        r += ".0"
    return r


def _elem_type(values):
    kinds = set()
    for v in values:
        if isinstance(v, bool):
            kinds.add("bool")
        elif isinstance(v, int):
            kinds.add("int")
        elif isinstance(v, float):
            kinds.add("float64")
        elif isinstance(v, str):
            kinds.add("string")
        else:
            return "any"
    if kinds == {"int", "float64"}:
        return "float64"
    if len(kinds) == 1:
        return kinds.pop()
    return "any"


def go_literal(v, elem=None):
    """Go source for a parameter value (str, int, float, bool, None, list, dict)."""
    if v is None:
        return "nil"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return _go_float(float(v)) if elem == "float64" else str(v)
    if isinstance(v, float):
        return _go_float(v)
    if isinstance(v, str):
        return _go_string(v)
    if isinstance(v, (list, tuple)):
        t = _elem_type(v) if v else "any"
        return f"[]{t}{{" + ", ".join(go_literal(x, t) for x in v) + "}"
    if isinstance(v, dict):
        t = _elem_type(v.values()) if v else "any"
        items = ", ".join(f"{_go_string(str(k))}: {go_literal(x, t)}" for k, x in v.items())
        return f"map[string]{t}{{{items}}}"
    raise ValueError(f"a parameter of type {type(v).__name__} cannot be written as Go")


class GoTranslator(Translator):
    """papermill translator for Go (the neurogo kernel)."""

    @classmethod
    def translate(cls, val):
        return go_literal(val)

    @classmethod
    def comment(cls, cmt_str):
        return f"// {cmt_str}".strip()

    @classmethod
    def assign(cls, name, str_val):
        return f"{name} = {str_val}"

    @classmethod
    def inspect(cls, parameters_cell):
        from papermill.models import Parameter

        return [
            Parameter(name=n, inferred_type_name=t, default=d, help=h)
            for n, t, d, h in inspect_parameters(parameters_cell["source"])
        ]

    @classmethod
    def codify(cls, parameters, comment="Parameters"):
        lines = [cls.comment(comment)]
        body = [cls.assign(name, cls.translate(val)) for name, val in parameters.items()]
        if any("math." in b for b in body):
            lines.append('import "math"')
        return "\n".join(lines + body) + "\n"


# One declaration per line in the parameters cell:
#   var name = value          // help
#   var name type = value     // help
#   name := value             // help
_DECL = re.compile(
    r"^\s*(?:var\s+(?P<v>[A-Za-z_][A-Za-z0-9_]*)(?:\s+(?P<t>[^=]+?))?\s*=|(?P<d>[A-Za-z_][A-Za-z0-9_]*)\s*:=)"
    r"\s*(?P<val>.*?)\s*(?://\s*(?P<help>.*))?$"
)


def _infer_type(declared, value):
    if declared:
        return declared.strip()
    v = value.strip()
    if v in ("true", "false"):
        return "bool"
    if v.startswith(("\"", "`")):
        return "string"
    if re.fullmatch(r"[-+]?\d+", v):
        return "int"
    if re.fullmatch(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?", v):
        return "float64"
    m = re.match(r"^([A-Za-z_][\w.\[\]]*)\(", v)  # int64(0), float32(1)
    if m:
        return m.group(1)
    m = re.match(r"^(\[\][\w.]+|map\[[^\]]+\][\w.]+)\{", v)
    if m:
        return m.group(1)
    return "None"


def inspect_parameters(source):
    """Parameters declared in a Go parameters cell, as (name, type, default, help)."""
    out = []
    for line in source.splitlines():
        m = _DECL.match(line)
        if not m:
            continue
        name = m.group("v") or m.group("d")
        val = m.group("val") or ""
        out.append((name, _infer_type(m.group("t"), val), val, (m.group("help") or "").strip()))
    return out


def register(module=None):
    """Register GoTranslator for the kernel name neurogo and language go."""
    if module is None:
        import papermill.translators as module
    module.papermill_translators.register("go", GoTranslator)
    module.papermill_translators.register("neurogo", GoTranslator)


if Translator is not object:
    # papermill is installed: register now, whichever of the two modules was
    # imported first (the import hook of _hook.py registers the translator
    # when papermill.translators is imported before this module)
    register()
