#!/usr/bin/env python3
"""Generates docs/api-parity.md: every public Box2D v3 function and definition field
beside its Impulse2D equivalent, or the reason there is none.

Box2D's side is read from its public headers: the copy vendored by the boxdd-sys crate
(the version our differential tests and benchmarks build) plus what upstream's newer
headers in ../shared/reference/box2d-upstream/ add. Our side is read from rustdoc lines
of exactly this form on public items in crates/impulse2d/src:

    /// Box2D: `b2Body_SetGravityScale`.
    /// Box2D: `b2Joint_GetLocalFrameA`, `b2Joint_GetLocalAnchorA`.
    /// Box2D: `b2BodyDef.gravityScale`.

The item's path comes from the enclosing impl block, struct, trait or module. Inside
the invocation of a macro that declares methods from rows (ROW_MACROS, e.g. `view!`
and `part_view!` in crates/impulse2d/src/api), a tag belongs to the row after it:
a row `Type::name …;` names its path outright, and a row `fn name(&self …` or
`fn name(&mut self …` is a method of the read or write alias that the invocation's
`pub struct XView<W>…: XRef, XMut;` row declares (or, without one, of the impl
block the invocation stands in). Hand mappings, moot functions (with their reason) and functions left to other issues live
in scripts/api-parity-extra.tsv.

    python3 scripts/api_parity.py           writes docs/api-parity.md
    python3 scripts/api_parity.py --check   fails when the committed file is stale, a tag
                                            names no Box2D function or field, a tag sits on
                                            a non-public item, or a Box2D function has no row

Python 3 standard library only.
"""

import argparse
import fnmatch
import glob
import json
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(REPO, "crates", "impulse2d", "src")
DOC = os.path.join(REPO, "docs", "api-parity.md")
EXTRA_REL = "scripts/api-parity-extra.tsv"
EXTRA = os.path.join(REPO, EXTRA_REL)
UPSTREAM_REL = os.path.join("..", "shared", "reference", "box2d-upstream")

# Headers whose B2_API functions get a row, in the order the document lists them.
HEADERS = ["box2d.h", "collision.h", "math_functions.h", "base.h", "types.h"]
# Definition structs (types.h) whose fields get a row, besides every `b2*Def`.
EXTRA_STRUCTS = ["b2MotionLocks", "b2Filter", "b2QueryFilter", "b2SurfaceMaterial", "b2DebugDraw"]
# Fields that need no row of their own in any struct.
AUTO_MOOT_FIELDS = {
    "internalValue": "validation cookie for C's uninitialised structs; Rust defs come from `Default`",
}

# Exactly `/// Box2D: `b2A`, `b2B.field`.` (a line of prose that mentions Box2D is no tag).
# A tag: `/// Box2D: ` and a list of names in backticks, ending in a period; a list
# ending in a comma goes on over the next doc lines. Names with wildcards
# (`b2Body_*`) make the line prose, not a tag.
TAG_START = re.compile(r"^\s*//([/!])\s*Box2D:\s*(.*)$")
TAG_MORE = re.compile(r"^\s*//[/!]\s*(.*)$")
TAG_LIST = re.compile(r"^(`b2[\w.]+`(?:\s*,\s*`b2[\w.]+`)*)\s*\.?\s*$")
TAG_NAME = re.compile(r"`([^`]*)`")
BOX2D_NAME = re.compile(r"^b2\w+(\.\w+)?$")
ISSUE = re.compile(r"#(\d+)")


def fail(msg):
    print("api_parity: " + msg, file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------------
# Box2D's headers
# ---------------------------------------------------------------------------


def boxdd_version():
    """The boxdd-sys version in Cargo.lock."""
    with open(os.path.join(REPO, "Cargo.lock"), encoding="utf-8") as f:
        lock = f.read()
    m = re.search(r'name = "boxdd-sys"\nversion = "([^"]+)"', lock)
    if not m:
        fail("boxdd-sys is not in Cargo.lock")
    return m.group(1)


def find_boxdd(version):
    """The boxdd-sys source directory: the cargo registry first, then `cargo metadata`."""
    homes = [os.environ.get("CARGO_HOME"), os.path.join(os.path.expanduser("~"), ".cargo")]
    for home in homes:
        if not home:
            continue
        hits = sorted(glob.glob(os.path.join(home, "registry", "src", "*", "boxdd-sys-" + version)))
        for hit in hits:
            if os.path.isdir(os.path.join(hit, "third-party", "box2d", "include", "box2d")):
                return hit
    try:
        out = subprocess.run(
            ["cargo", "metadata", "--format-version", "1"],
            cwd=REPO,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail("cannot find boxdd-sys %s (no registry copy, cargo metadata failed: %s)" % (version, e))
    for pkg in json.loads(out)["packages"]:
        if pkg["name"] == "boxdd-sys" and pkg["version"] == version:
            return os.path.dirname(pkg["manifest_path"])
    fail("cargo metadata does not list boxdd-sys %s" % version)


def find_upstream():
    """../shared/reference/box2d-upstream beside the repo, or beside the main checkout
    when this is a git worktree."""
    roots = [REPO]
    try:
        common = subprocess.run(
            ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
            cwd=REPO, check=True, capture_output=True, text=True,
        ).stdout.strip()
        roots.append(os.path.dirname(common))
    except (OSError, subprocess.CalledProcessError):
        pass
    for root in roots:
        path = os.path.normpath(os.path.join(root, UPSTREAM_REL))
        if os.path.isdir(path):
            return path
    return os.path.normpath(os.path.join(REPO, UPSTREAM_REL))


def blank(text, start, end):
    """`text` with [start, end) replaced by spaces, newlines kept (offsets stay valid)."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def strip_c(text):
    """C comments and preprocessor lines blanked out, offsets kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    code = "".join(out)
    # preprocessor lines (with continuations)
    lines = code.split("\n")
    cont = False
    for k, line in enumerate(lines):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            lines[k] = " " * len(line)
    return "\n".join(lines)


FUNC = re.compile(r"\bB2_API\s+[^;{}()]*?\b(b2\w+)\s*\(")
GROUP = re.compile(r"@(defgroup|ingroup)\s+(\w+)(?:[ \t]+([^\n]*))?")


def parse_functions(path):
    """[(name, group)] of the B2_API functions in a header, in order. The group is the
    latest `@defgroup` or `@ingroup` above the function."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    marks = [(m.start(), m.group(2), m.group(1), (m.group(3) or "").strip()) for m in GROUP.finditer(text)]
    titles = {name: title for _, name, kind, title in marks if kind == "defgroup" and title}
    code = strip_c(text)
    result = []
    for m in FUNC.finditer(code):
        group = None
        for pos, name, _, _ in marks:
            if pos < m.start():
                group = name
        result.append((m.group(1), group))
    return result, titles


STRUCT = re.compile(r"typedef\s+struct\s+(b2\w+)\s*\{(.*?)\}\s*(b2\w+)\s*;", re.S)


def parse_structs(path):
    """{struct name: [field, …]} of the typedef'd structs in a header, in order."""
    with open(path, encoding="utf-8") as f:
        code = strip_c(f.read())
    structs = {}
    for m in STRUCT.finditer(code):
        fields = []
        for stmt in m.group(2).split(";"):
            stmt = " ".join(stmt.split())
            if not stmt:
                continue
            fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", stmt)  # function pointer
            if fp:
                fields.append(fp.group(1))
                continue
            stmt = re.sub(r"\[[^\]]*\]", "", stmt)
            for part in stmt.split(","):
                ident = re.findall(r"\w+", part)
                if ident:
                    fields.append(ident[-1])
        structs[m.group(3)] = fields
    return structs


class Box2D:
    """The union of the vendored and upstream headers."""

    def __init__(self, vendored_dir, upstream_dir):
        self.functions = []  # (name, group, header, upstream_only)
        self.group_titles = {}
        self.structs = []  # (struct, [(field, upstream_only)])
        seen = set()
        for header in HEADERS:
            v_funcs, v_titles = parse_functions(os.path.join(vendored_dir, header))
            u_funcs, u_titles = parse_functions(os.path.join(upstream_dir, header))
            self.group_titles.update(u_titles)
            self.group_titles.update(v_titles)
            v_names = {n for n, _ in v_funcs}
            u_names = {n for n, _ in u_funcs}
            # upstream's order (a superset so far), then anything only the vendored copy has
            for name, group in u_funcs + [f for f in v_funcs if f[0] not in u_names]:
                if name in seen:
                    continue
                seen.add(name)
                self.functions.append((name, group, header, name not in v_names))
        v_structs = parse_structs(os.path.join(vendored_dir, "types.h"))
        u_structs = parse_structs(os.path.join(upstream_dir, "types.h"))
        names = list(u_structs) + [s for s in v_structs if s not in u_structs]
        for s in names:
            if not (s.endswith("Def") or s in EXTRA_STRUCTS):
                continue
            v = v_structs.get(s)
            u = u_structs.get(s, [])
            fields = [(f, v is None or f not in v) for f in u]
            fields += [(f, False) for f in (v or []) if f not in u]
            self.structs.append((s, fields))
        self.function_names = {f[0] for f in self.functions}
        self.field_names = {"%s.%s" % (s, f) for s, fs in self.structs for f, _ in fs}


# ---------------------------------------------------------------------------
# Our side: tags on public items
# ---------------------------------------------------------------------------


def strip_rust_line(line, state):
    """The code of one line with comments, strings and char literals removed.
    `state` carries block comments and strings across lines."""
    out = []
    i, n = 0, len(line)
    while i < n:
        if state["block"]:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out)
            state["block"] = False
            i = j + 2
        elif state["string"]:
            raw = state["string"]
            if raw == '"':
                while i < n and line[i] != '"':
                    i += 2 if line[i] == "\\" else 1
                if i < n:
                    state["string"] = None
                    i += 1
            else:
                j = line.find(raw, i)
                if j < 0:
                    return "".join(out)
                state["string"] = None
                i = j + len(raw)
            out.append('""')
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            state["block"] = True
            i += 2
        elif line[i] == '"':
            state["string"] = '"'
            i += 1
        elif line[i] == "r" and re.match(r'r#*"', line[i:]) and (i == 0 or not line[i - 1].isalnum()):
            hashes = re.match(r"r(#*)\"", line[i:]).group(1)
            state["string"] = '"' + hashes
            i += 2 + len(hashes)
        elif line[i] == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", line[i:])
            if m:  # a char literal, not a lifetime
                out.append("' '")
                i += len(m.group(0))
            else:
                out.append("'")
                i += 1
        else:
            out.append(line[i])
            i += 1
    return "".join(out)


def split_generics(text):
    """(name, generic arguments) of a type written `Name<args>` (args may be empty)."""
    text = text.strip()
    m = re.match(r"([\w:]+)\s*(<.*>)?", text)
    if not m:
        return text, ""
    name = m.group(1).split("::")[-1]
    args = (m.group(2) or "")[1:-1]
    return name, args


def skip_generics(text):
    """`text` without a leading `<…>` (balanced)."""
    text = text.lstrip()
    if not text.startswith("<"):
        return text
    depth = 0
    for k, c in enumerate(text):
        if c == "<":
            depth += 1
        elif c == ">" and text[k - 1] != "-":
            depth -= 1
            if depth == 0:
                return text[k + 1 :]
    return text


class Context:
    def __init__(self, kind, name="", public=True, trait_impl=False, args=""):
        self.kind = kind  # module, impl, struct, enum, trait, block, rows
        self.name = name
        self.public = public
        self.trait_impl = trait_impl
        self.args = args
        self.aliases = None  # rows: (read alias, write alias) from the head row


# Macros whose `{ … }` invocations declare public methods, one row each (see the
# module doc), and the row forms they take.
ROW_MACROS = {"view", "part_view", "settings", "geometry_methods", "body_forces"}
ROW_HEAD = re.compile(r"^pub\s+struct\s+\w+\s*<\s*W\s*>.*:\s*(\w+)\s*,\s*(\w+)\b")
ROW_PATH = re.compile(r"^(\w+)::(\w+)\b")
ROW_METHOD = re.compile(r"^fn\s+(\w+)\s*\(\s*&\s*(mut\s+)?self\b")


def classify_header(header):
    """The context a `{` opens, from the code since the previous statement."""
    h = " ".join(header.split())
    h = re.sub(r"#\[[^\]]*\]", "", h).strip()
    m = re.match(r"(pub(\([^)]*\))?\s+)?(unsafe\s+)?impl\b(.*)$", h)
    if m:
        rest = skip_generics(m.group(4))
        rest = re.split(r"\bwhere\b", rest)[0].strip()
        trait_impl = False
        parts = re.split(r"\s+for\s+", rest, maxsplit=1)
        if len(parts) == 2:
            trait_impl = True
            rest = parts[1]
        name, args = split_generics(rest)
        return Context("impl", name, True, trait_impl, args)
    m = re.match(r"(pub(\([^)]*\))?\s+)?(struct|enum|trait|union)\s+(\w+)", h)
    if m:
        public = bool(m.group(1)) and not m.group(2)
        return Context(m.group(3) if m.group(3) != "union" else "struct", m.group(4), public)
    m = re.match(r"(pub(\([^)]*\))?\s+)?mod\s+(\w+)$", h)
    if m:
        return Context("module", m.group(3), bool(m.group(1)) and not m.group(2))
    m = re.match(r"(\w+)\s*!$", h)
    if m and m.group(1) in ROW_MACROS:
        return Context("rows", m.group(1))
    return Context("block")


ITEM_FN = re.compile(r"^(pub(\([^)]*\))?\s+)?((const|unsafe|async|extern\s+\"C\")\s+)*fn\s+(\w+)")
ITEM_TYPE = re.compile(r"^(pub(\([^)]*\))?\s+)?(struct|enum|trait|type|const|static|union|mod)\s+(\w+)")
ITEM_FIELD = re.compile(r"^(pub(\([^)]*\))?\s+)?(\w+)\s*:")
ITEM_VARIANT = re.compile(r"^(\w+)\s*[,({=]?")


class Item:
    def __init__(self, path, public, where):
        self.path = path
        self.public = public
        self.where = where


def module_path(rel):
    """Module path segments of a source file relative to src/."""
    parts = rel[:-3].split(os.sep)
    if parts[-1] in ("lib", "mod"):
        parts = parts[:-1]
    return parts


def public_module_path(segments, sources):
    """The path a user writes: private modules re-exported by their parent are dropped."""
    out = []
    for k, seg in enumerate(segments):
        parent = segments[:k]
        parent_file = os.path.join(*parent, "mod.rs") if parent else "lib.rs"
        if not parent_file in sources:
            parent_file = os.path.join(*parent) + ".rs"
        text = sources.get(parent_file, "")
        if re.search(r"^\s*pub\s+mod\s+%s\s*;" % seg, text, re.M):
            out.append(seg)
        elif re.search(r"^\s*pub\s+use\s+(self::)?%s::" % seg, text, re.M):
            continue  # re-exported into the parent
        else:
            out.append(seg)
    return out


def type_aliases(sources):
    """{(type name, kind): alias} for `pub type XMut<'w> = XView<&'w mut World>;` and the
    read alias: kind is "mut" or "ref"."""
    aliases = {}
    for text in sources.values():
        for m in re.finditer(r"^\s*pub\s+type\s+(\w+)\s*(<[^=]*>)?\s*=\s*(\w+)\s*<\s*&\s*('\w+\s+)?(mut\s+)?World\s*>\s*;", text, re.M):
            aliases[(m.group(3), "mut" if m.group(5) else "ref")] = m.group(1)
    aliases["__words__"] = {w for text in sources.values() for w in re.findall(r"\b\w+(?:Ref|Mut)\b", text)}
    return aliases


def impl_display_name(ctx, aliases):
    """The name a reader looks up for methods of an impl block: a view's alias when
    the block is for the write view (`XMut`) or for every view (`XRef`). Aliases a
    macro declares are not in the text; `XView`'s are then taken to be `XRef`/`XMut`
    (the naming rule of the views) when those names occur in the source."""
    args = ctx.args.replace(" ", "")
    kind = None
    if re.search(r"&('\w+)?mut(World|crate::World|crate::world::World)", args):
        kind = "mut"
    elif args:
        kind = "ref"
    if kind is None:
        return ctx.name
    if (ctx.name, kind) in aliases:
        return aliases[(ctx.name, kind)]
    if ctx.name.endswith("View"):
        guess = ctx.name[:-4] + kind.capitalize()
        if guess in aliases.get("__words__", ()):
            return guess
    return ctx.name


def scan_rust(src_dir):
    """[(box2d name, Item)] from every tag line, and [errors]."""
    sources = {}
    for root, _, files in os.walk(src_dir):
        for fn in files:
            if fn.endswith(".rs"):
                full = os.path.join(root, fn)
                with open(full, encoding="utf-8") as f:
                    sources[os.path.relpath(full, src_dir)] = f.read()
    aliases = type_aliases(sources)
    tags = []
    errors = []
    for rel in sorted(sources):
        mod = public_module_path(module_path(rel), sources)
        stack = []  # contexts
        header = ""
        pending = []  # (name, line number)
        state = {"block": False, "string": None}
        test_depth = None
        cfg_test = False
        where = lambda k: "crates/impulse2d/src/%s:%d" % (rel.replace(os.sep, "/"), k)
        lines = sources[rel].split("\n")
        tag_text = None  # a tag list still open (ending in a comma)
        for k, line in enumerate(lines, 1):
            stripped = line.strip()
            if not state["block"] and not state["string"]:
                m = TAG_START.match(line)
                if tag_text is not None and TAG_MORE.match(line) and not m:
                    tag_text += " " + TAG_MORE.match(line).group(1).strip()
                elif m:
                    tag_text = m.group(2).strip()
                    tag_line, inner_doc = k, m.group(1) == "!"
                else:
                    tag_text = None
                if tag_text is not None and tag_text.endswith(",") and k < len(lines):
                    continue
                m = TAG_LIST.match(tag_text) if tag_text is not None else None
                tag_text = None
                if m:
                    names = TAG_NAME.findall(m.group(1))
                    k = tag_line
                    if inner_doc:
                        path = "::".join(mod + [c.name for c in stack if c.kind == "module"])
                        for name in names:
                            tags.append((name, Item(path or "impulse2d", True, where(k))))
                    else:
                        pending.extend((name, k) for name in names)
                    continue
                if stripped.startswith("///") or stripped.startswith("//!"):
                    continue
                if stripped.startswith("#[") or stripped.startswith("#!["):
                    if re.match(r"#\[cfg\((test|all\(test)", stripped):
                        cfg_test = True
                    if stripped.endswith("]"):
                        continue
            code = strip_rust_line(line, state)
            code_stripped = code.strip()
            if stack and stack[-1].kind == "rows":
                m = ROW_HEAD.match(code_stripped)
                if m:
                    stack[-1].aliases = (m.group(1), m.group(2))
            if pending and code_stripped:
                group = field_group(code_stripped, stack, where(k))
                if group is not None:
                    # A field group of a definition macro (`spring(enable_spring = ..,
                    # hertz = .., damping_ratio = ..);`): the tag's names, in order,
                    # are its fields, in order.
                    if len(group) != len(pending):
                        errors.append("%s: the tag names %d fields, the group declares %d"
                                      % (where(pending[0][1]), len(pending), len(group)))
                    for (name, _), item in zip(pending, group):
                        tags.append((name, item))
                    pending = []
                    continue
                item = resolve_item(code_stripped, stack, mod, aliases, where(k))
                if item is None:
                    errors.append("%s: a `Box2D:` tag is not followed by an item" % where(pending[0][1]))
                else:
                    if test_depth is not None:
                        item.public = False
                    for name, _ in pending:
                        tags.append((name, item))
                pending = []
            # braces
            for c in code:
                if c == "{":
                    ctx = classify_header(header)
                    if cfg_test and ctx.kind == "module" and test_depth is None:
                        test_depth = len(stack)
                    stack.append(ctx)
                    header = ""
                    cfg_test = False
                elif c == "}":
                    if stack:
                        stack.pop()
                    if test_depth is not None and len(stack) <= test_depth:
                        test_depth = None
                    header = ""
                elif c == ";":
                    header = ""
                    cfg_test = False
                else:
                    header += c
            header += " "
        if pending:
            errors.append("%s: a `Box2D:` tag at the end of the file" % where(pending[0][1]))
    return tags, errors


FIELD_GROUP = re.compile(r"^(\w+)\(((?:\s*\w+\s*=\s*[^,()]+,?)+)\)[^;]*;$")


def field_group(code, stack, where):
    """[Item] for the fields a field-group line of a `joint_def!` struct declares
    (`name(field = default, …) …;`), or None for any other line."""
    inner = stack[-1] if stack else None
    if inner is None or inner.kind != "struct":
        return None
    m = FIELD_GROUP.match(code)
    if not m:
        return None
    fields = re.findall(r"(\w+)\s*=", m.group(2))
    return [Item("%s.%s" % (inner.name, f), inner.public, where) for f in fields]


def resolve_item(code, stack, mod, aliases, where):
    """The Item a line of code starts, given the enclosing contexts."""
    inner = stack[-1] if stack else Context("module")
    modules = mod + [c.name for c in stack if c.kind == "module"]
    if inner.kind == "rows":
        impl = next((c for c in reversed(stack) if c.kind == "impl"), None)
        return resolve_row(code, inner, impl and impl_display_name(impl, aliases), where)
    m = ITEM_FN.match(code)
    if m:
        name = m.group(5)
        vis = m.group(1) and not m.group(2)
        if inner.kind == "impl":
            public = bool(vis) or inner.trait_impl
            return Item("%s::%s" % (impl_display_name(inner, aliases), name), public, where)
        if inner.kind == "trait":
            return Item("%s::%s" % (inner.name, name), inner.public, where)
        if inner.kind == "module":
            return Item("::".join(modules + [name]), bool(vis), where)
        return None
    m = ITEM_TYPE.match(code)
    if m:
        name = m.group(4)
        vis = bool(m.group(1)) and not m.group(2)
        if inner.kind == "impl":  # associated const or type
            return Item("%s::%s" % (impl_display_name(inner, aliases), name), vis or inner.trait_impl, where)
        if m.group(3) in ("mod", "const", "static"):
            return Item("::".join((modules or ["impulse2d"]) + [name]), vis, where)
        return Item(name, vis, where)
    m = re.match(r"^(unsafe\s+)?impl\b", code)
    if m:
        ctx = classify_header(code.split("{")[0])
        if ctx.trait_impl and re.search(r"\bDefault\s+for\b", code):
            return Item("%s::default" % ctx.name, True, where)
        return Item(ctx.name, True, where)
    if inner.kind == "struct":
        m = ITEM_FIELD.match(code)
        if m:
            return Item("%s.%s" % (inner.name, m.group(3)), bool(m.group(1)) and not m.group(2) and inner.public, where)
    if inner.kind == "enum":
        m = ITEM_VARIANT.match(code)
        if m:
            return Item("%s::%s" % (inner.name, m.group(1)), inner.public, where)
    # A type a macro declares from its first argument (`part_view!(/// doc … Name, …)`).
    m = re.match(r"^([A-Z]\w*)\s*,$", code)
    if m and inner.kind == "module":
        return Item(m.group(1), True, where)
    return None


def resolve_row(code, ctx, impl_name, where):
    """The Item a row of a ROW_MACROS invocation declares (see the module doc); a
    method row in an invocation inside an impl block is a method of that impl."""
    m = ROW_PATH.match(code)
    if m:
        return Item("%s::%s" % (m.group(1), m.group(2)), True, where)
    m = ROW_METHOD.match(code)
    if m and ctx.aliases:
        return Item("%s::%s" % (ctx.aliases[1 if m.group(2) else 0], m.group(1)), True, where)
    if m and impl_name:
        return Item("%s::%s" % (impl_name, m.group(1)), True, where)
    return None


# ---------------------------------------------------------------------------
# Hand mappings
# ---------------------------------------------------------------------------


class Extra:
    def __init__(self, name, status, path, note, line):
        self.name = name
        self.status = status
        self.path = path
        self.note = note
        self.line = line
        self.used = False


def read_extra(path):
    rows = []
    errors = []
    with open(path, encoding="utf-8") as f:
        for k, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 4:
                errors.append("%s:%d: expected 4 tab-separated columns, found %d" % (EXTRA_REL, k, len(cols)))
                continue
            name, status, p, note = (c.strip() for c in cols)
            if status not in ("equivalent", "moot", "missing"):
                errors.append("%s:%d: status must be equivalent, moot or missing" % (EXTRA_REL, k))
            if status == "equivalent" and not p:
                errors.append("%s:%d: an equivalent needs our path" % (EXTRA_REL, k))
            if status == "moot" and not note:
                errors.append("%s:%d: a moot row needs its reason" % (EXTRA_REL, k))
            if status == "missing" and not ISSUE.search(note):
                errors.append("%s:%d: a missing row names the issue that brings it (#N)" % (EXTRA_REL, k))
            rows.append(Extra(name, status, p, note, k))
    return rows, errors


def find_extra(rows, name):
    for r in rows:
        if r.name == name:
            return r
    for r in rows:
        if any(c in r.name for c in "*?[") and fnmatch.fnmatchcase(name, r.name):
            return r
    return None


# ---------------------------------------------------------------------------
# The document
# ---------------------------------------------------------------------------


def code(text):
    return "`%s`" % text


def build_rows(names, tagged, extra):
    """[(name, ours, status, note)] for Box2D names in order."""
    rows = []
    for name in names:
        if name in tagged:
            paths = sorted(set(tagged[name]), key=lambda p: (p.count("."), p))
            rows.append((name, ", ".join(code(p) for p in paths), "equivalent", ""))
            continue
        e = find_extra(extra, name)
        if e is None:
            rows.append((name, "—", "missing", ""))
            continue
        e.used = True
        ours = ", ".join(code(p.strip()) for p in e.path.split(";")) if e.path else "—"
        rows.append((name, ours, e.status, e.note))
    return rows


def percent(good, total):
    return "%.1f%%" % (100.0 * good / total) if total else "—"


def tally(rows):
    eq = sum(1 for r in rows if r[2] == "equivalent")
    moot = sum(1 for r in rows if r[2] == "moot")
    other = sum(1 for r in rows if r[2] == "missing" and r[3])
    return eq, moot, len(rows) - eq - moot, other


def status_cell(row):
    _, _, status, note = row
    if status == "equivalent":
        return "equivalent" + (" (%s)" % note if note else "")
    if status == "moot":
        return "moot: " + note
    return "**missing**" + (": " + note if note else "")


def render(box2d, tags, extra, versions):
    tagged = {}
    for name, item in tags:
        tagged.setdefault(name, []).append(item.path)

    groups = []  # (title, [rows])
    by_group = {}
    upstream_only = {f[0] for f in box2d.functions if f[3]}
    for name, group, header, _ in box2d.functions:
        key = group or header
        if key not in by_group:
            by_group[key] = []
            title = box2d.group_titles.get(group, group or header)
            groups.append((key, title))
        by_group[key].append(name)
    func_groups = [(title, build_rows(by_group[key], tagged, extra)) for key, title in groups]
    field_groups = []
    upstream_fields = set()
    for struct, fields in box2d.structs:
        names = []
        for f, up in fields:
            full = "%s.%s" % (struct, f)
            names.append(full)
            if up:
                upstream_fields.add(full)
        rows = build_rows(names, tagged, extra)
        rows = [
            (n, o, "moot", AUTO_MOOT_FIELDS[n.split(".")[1]])
            if s == "missing" and not t and n.split(".")[1] in AUTO_MOOT_FIELDS
            else (n, o, s, t)
            for n, o, s, t in rows
        ]
        field_groups.append((struct, rows))

    out = []
    w = out.append
    w("# Box2D API parity")
    w("")
    w("<!-- Generated by scripts/api_parity.py; do not edit. Regenerate with `python3 scripts/api_parity.py`. -->")
    w("")
    w(
        "Every public function (`B2_API`) of Box2D v3's headers (%s) and every field of its "
        "definition structs, beside the Impulse2D item that does the same, or why there is none. "
        "Box2D's side is the copy vendored by boxdd-sys %s (upstream commit %s) plus what upstream's "
        "newer headers (commit %s) add, marked †. Our side is the `/// Box2D: `b2Name`.` line in the "
        "rustdoc of each public item, and `scripts/api-parity-extra.tsv` for hand mappings and moot "
        "functions." % (", ".join(HEADERS), versions["boxdd"], versions["vendored"], versions["upstream"])
    )
    w("")
    w(
        "Statuses: **equivalent** (the item does what the function does; a getter written on "
        "`XRef` works on `XMut` too), **moot** (nothing to do in Rust, with the reason), **missing** "
        "(with the issue that brings it, where one does). Math's inline helpers (`b2Dot`, `b2MakeRot`, …) "
        "are not listed: they are `Vec2`, `Rot` and `Transform` methods and operators."
    )
    w("")
    all_funcs = [r for _, rows in func_groups for r in rows]
    all_fields = [r for _, rows in field_groups for r in rows]
    for label, rows in (("Functions", all_funcs), ("Definition fields", all_fields)):
        eq, moot, missing, later = tally(rows)
        w(
            "**%s: %d of %d equivalent or moot (%s)**; %d equivalent, %d moot, %d missing "
            "(%d of them for other issues; without those: %s)."
            % (label, eq + moot, len(rows), percent(eq + moot, len(rows)), eq, moot, missing, later,
               percent(eq + moot, len(rows) - later))
        )
        w("")
    w("## Summary")
    w("")
    w("| group | rows | equivalent | moot | missing | equivalent or moot |")
    w("|---|---:|---:|---:|---:|---:|")
    for title, rows in func_groups + field_groups:
        eq, moot, missing, _ = tally(rows)
        anchor = re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")
        w("| [%s](#%s) | %d | %d | %d | %d | %s |" % (title, anchor, len(rows), eq, moot, missing, percent(eq + moot, len(rows))))
    w("")
    for heading, groups, upstream in (
        ("Functions", func_groups, upstream_only),
        ("Definition fields", field_groups, upstream_fields),
    ):
        w("## " + heading)
        for title, rows in groups:
            w("")
            w("### %s" % title)
            w("")
            w("| Box2D | Impulse2D | status |")
            w("|---|---|---|")
            for row in rows:
                mark = " †" if row[0] in upstream else ""
                w("| `%s`%s | %s | %s |" % (row[0], mark, row[1], status_cell(row)))
        w("")
    return "\n".join(out), (all_funcs, all_fields, func_groups)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail when docs/api-parity.md is stale or a tag is wrong")
    ap.add_argument("--box2d-include", help="directory of the vendored box2d headers (default: found from Cargo.lock)")
    ap.add_argument("--upstream", help="directory of upstream's newer headers (default: ../shared/reference/box2d-upstream)")
    args = ap.parse_args()

    version = boxdd_version()
    if args.box2d_include:
        vendored = args.box2d_include
        boxdd_dir = None
    else:
        boxdd_dir = find_boxdd(version)
        vendored = os.path.join(boxdd_dir, "third-party", "box2d", "include", "box2d")
    if not args.upstream:
        args.upstream = find_upstream()
    if not os.path.isdir(args.upstream):
        fail("upstream headers not found at %s (a checkout of the shared reference beside the repo)" % args.upstream)
    versions = {"boxdd": version, "vendored": "?", "upstream": "?"}
    if boxdd_dir and os.path.exists(os.path.join(boxdd_dir, "upstream.toml")):
        with open(os.path.join(boxdd_dir, "upstream.toml"), encoding="utf-8") as f:
            m = re.search(r'active_revision\s*=\s*"([0-9a-f]{8})', f.read())
            if m:
                versions["vendored"] = m.group(1)
    readme = os.path.join(args.upstream, "README.md")
    if os.path.exists(readme):
        with open(readme, encoding="utf-8") as f:
            m = re.search(r"commit ([0-9a-f]{8})", f.read())
            if m:
                versions["upstream"] = m.group(1)

    box2d = Box2D(vendored, args.upstream)
    tags, errors = scan_rust(SRC)
    extra, extra_errors = read_extra(EXTRA)
    errors += extra_errors
    warnings = []
    known = box2d.function_names | box2d.field_names
    for name, item in tags:
        if not BOX2D_NAME.match(name):
            errors.append("%s: `%s` is not a Box2D name (b2Function or b2Struct.field)" % (item.where, name))
        elif name not in known:
            errors.append("%s: `%s` is no Box2D function or definition field (typo?)" % (item.where, name))
        if not item.public:
            errors.append("%s: `%s` is tagged on `%s`, which is not public" % (item.where, name, item.path))
    for r in extra:
        if not any(c in r.name for c in "*?[") and r.name not in known:
            errors.append("%s:%d: `%s` is no Box2D function or definition field" % (EXTRA_REL, r.line, r.name))

    text, (funcs, fields, _) = render(box2d, tags, extra, versions)
    # Guard: every header function and field has exactly one row.
    if sorted(r[0] for r in funcs) != sorted(box2d.function_names):
        errors.append("a Box2D function has no row (or two)")
    if sorted(r[0] for r in fields) != sorted(box2d.field_names):
        errors.append("a Box2D definition field has no row (or two)")
    tagged = {n for n, _ in tags}
    for r in extra:
        if not r.used:
            if r.name in tagged:
                warnings.append("%s:%d: `%s` is tagged in the source now; the row here is unused" % (EXTRA_REL, r.line, r.name))
            else:
                warnings.append("%s:%d: `%s` matches no row" % (EXTRA_REL, r.line, r.name))

    for msg in warnings:
        print("api_parity: warning: " + msg, file=sys.stderr)
    eq_moot = sum(1 for r in funcs if r[2] != "missing")
    summary = "functions %d/%d equivalent or moot (%s), fields %d/%d (%s)" % (
        eq_moot, len(funcs), percent(eq_moot, len(funcs)),
        sum(1 for r in fields if r[2] != "missing"), len(fields),
        percent(sum(1 for r in fields if r[2] != "missing"), len(fields)),
    )
    if args.check:
        try:
            with open(DOC, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            errors.append("docs/api-parity.md is not what the headers and tags give; run `python3 scripts/api_parity.py`")
        for msg in errors:
            print("api_parity: error: " + msg, file=sys.stderr)
        if errors:
            sys.exit(1)
        print("api_parity: docs/api-parity.md is current: " + summary)
        return
    for msg in errors:
        print("api_parity: error: " + msg, file=sys.stderr)
    os.makedirs(os.path.dirname(DOC), exist_ok=True)
    with open(DOC, "w", encoding="utf-8") as f:
        f.write(text)
    print("api_parity: wrote docs/api-parity.md: " + summary)
    if errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
