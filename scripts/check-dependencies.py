#!/usr/bin/env python3
# Checks that every target's `dependencies:` in Package.swift match what its sources import:
# each module a target imports must be declared (by target name or as a product), and each
# declared dependency must be imported somewhere in the target. Run by `make lint`.
#
#   ./scripts/check-dependencies.py               # runs `swift package dump-package`
#   ./scripts/check-dependencies.py dump.json     # a saved `swift package dump-package` output
#
# What is checked:
# - Every Swift target: regular and executable targets (under Sources/, or wherever `path:`
#   puts them, e.g. Tests/TesseraTestSupport), macro targets, and test targets under Tests/.
#   Test targets are checked too: they import what they depend on exactly like the library
#   modules do, and a stale dependency there still costs build time and hides what a test uses.
# - Not checked: C targets (an `include/` folder, or no .swift file at all: their headers are
#   found through `#include`, not module imports; their own `dependencies:` are left alone),
#   system-library, binary and plugin targets.
# - Imports: every import declaration in the target's .swift files, whatever its attributes
#   and access level (`@testable`, `@_exported`, `@preconcurrency`, `package`, `public`, …)
#   and kind (`import struct X.Y` counts as X). Imports inside `#if` blocks (`canImport`,
#   `os(...)`) count too: the target needs the dependency on the platform that takes that
#   branch. Comments and string literals (Python snippets in tests) are skipped.
# - A module reached through another module's `@_exported import` must still be declared if a
#   target imports it directly: SwiftPM only guarantees a module to a target that declares it.
# - Toolchain and platform modules (SYSTEM_MODULES) need no declaration.
# - `.product(name:package:)`: the product name is the module name for the packages used
#   here; PRODUCT_MODULES lists the products whose modules are named differently.
# - A target's module is its name with `-` etc. made `_` (tessera-loader-bench →
#   tessera_loader_bench), as SwiftPM names it.
# - ALLOWED lists (target, module) pairs exempt from the check, each with its reason. A C
#   target declared only to be linked would go there; none is today: each C library reaches
#   the binaries through a target that imports it (CPNG and CJPEG through TesseraUtilities,
#   CVipsShim through TesseraImages and TesseraImageSynthesis), and SwiftPM links a target's
#   dependencies transitively.
# - Without a file argument it runs `swift package --scratch-path .build dump-package` in the
#   package root; while a build holds .build it waits, checking every 20 s, for up to 15 min.
#
# Exits 1 on any mismatch, 0 if every target matches. Python 3 standard library only.

import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Modules of the toolchain and the platforms: imported without any package dependency.
SYSTEM_MODULES = {
    "Swift", "SwiftShims", "_Concurrency", "_StringProcessing", "_Differentiation",
    "RegexBuilder", "Observation", "Distributed", "Synchronization", "Cxx", "CxxStdlib",
    "Foundation", "FoundationEssentials", "FoundationInternationalization",
    "FoundationNetworking", "FoundationXML", "CoreFoundation", "Dispatch",
    "Testing", "XCTest",
    "Glibc", "Musl", "Darwin", "Android", "Bionic", "WASILibc", "WinSDK", "ucrt", "CRT",
    "os", "OSLog", "ObjectiveC", "System", "Combine", "Security", "Network", "CryptoKit",
    "AppKit", "UIKit", "SwiftUI", "Cocoa", "CoreGraphics", "CoreImage", "CoreServices",
    "CoreText", "CoreVideo", "CoreMedia", "ImageIO", "Photos", "AVFoundation", "Accelerate",
    "QuartzCore", "Metal", "MetalKit", "UniformTypeIdentifiers", "SystemConfiguration",
}

# Products whose modules are not just the product's name. Importing any of the modules counts
# as using the product; each of them is declared by declaring the product.
PRODUCT_MODULES = {
    # swift-nio: one product, two modules.
    "_NIOFileSystem": {"_NIOFileSystem", "NIOFileSystem"},
}

# (target, module) pairs the check lets through, each with the reason it is right.
# "imports": imported without being declared; "declares": declared without being imported.
ALLOWED: dict = {}

# An import declaration at the start of a line: attributes, an access level, a kind.
IMPORT = re.compile(
    r"^\s*(?:@[A-Za-z_][A-Za-z0-9_]*(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private|open)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?"
    r"`?([A-Za-z_][A-Za-z0-9_]*)`?"
)

# The start of a string literal: `"`, `"""`, or raw with any number of `#`s.
STRING_START = re.compile(r'(#*)("""|")')

LOCK_WAIT_SECONDS = 15 * 60
LOCK_POLL_SECONDS = 20


def fail(message):
    print(f"check-dependencies: {message}", file=sys.stderr)
    sys.exit(2)


def dump_package():
    """`swift package dump-package`'s JSON; waits while a build holds .build."""
    command = ["swift", "package", "--scratch-path", ".build", "dump-package"]
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        process = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        said_waiting = False
        while True:
            # SwiftPM either waits for the lock itself or gives up; either way, poll.
            try:
                out, err = process.communicate(timeout=LOCK_POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                if time.monotonic() >= deadline:
                    process.kill()
                    process.communicate()
                    fail(f"another SwiftPM still holds .build after {LOCK_WAIT_SECONDS // 60} "
                         "minutes; try again when the build is done")
                if not said_waiting:
                    print("check-dependencies: waiting for the SwiftPM that holds .build…",
                          file=sys.stderr)
                    said_waiting = True
        if process.returncode == 0:
            try:
                return json.loads(out)
            except json.JSONDecodeError as error:
                fail(f"dump-package printed no JSON ({error})")
        if "Another instance of SwiftPM" in err and time.monotonic() < deadline:
            print("check-dependencies: another SwiftPM is using .build; retrying in "
                  f"{LOCK_POLL_SECONDS} s", file=sys.stderr)
            time.sleep(LOCK_POLL_SECONDS)
            continue
        sys.stderr.write(err)
        fail(f"`{' '.join(command)}` failed (exit {process.returncode})")


def strip_comments_and_strings(text):
    """The source with comments and string literals blanked out, line breaks kept."""
    out = []
    i, n = 0, len(text)
    depth = 0  # nesting of /* */ comments
    while i < n:
        c = text[i]
        if depth:
            if text.startswith("/*", i):
                depth += 1
                i += 2
            elif text.startswith("*/", i):
                depth -= 1
                i += 2
            else:
                if c == "\n":
                    out.append("\n")
                i += 1
            continue
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        if text.startswith("/*", i):
            depth = 1
            i += 2
            continue
        # String literals, raw (#"…"#) or not, single- or multi-line.
        match = STRING_START.match(text, i)
        if match and (match.group(1) or c == '"'):
            hashes, quote = match.group(1), match.group(2)
            closing = quote + hashes
            i = match.end()
            while i < n:
                if not hashes and text[i] == "\\":
                    i += 2
                    continue
                if text.startswith(closing, i):
                    i += len(closing)
                    break
                if text[i] == "\n":
                    out.append("\n")
                    if quote == '"':  # an unterminated single-line string ends here
                        i += 1
                        break
                i += 1
            out.append('""')
            continue
        out.append(c)
        i += 1
    return "".join(out)


def swift_files(directory, sources, excluded):
    """The .swift files of a target: under its `sources:` (or its whole folder), less `exclude:`."""
    roots = [os.path.normpath(os.path.join(directory, s)) for s in sources] or [directory]
    found = []
    for root in roots:
        if os.path.isfile(root):
            found += [root] if root.endswith(".swift") and root not in excluded else []
            continue
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(
                d for d in subfolders if os.path.join(folder, d) not in excluded)
            found += [
                os.path.join(folder, name) for name in sorted(files)
                if name.endswith(".swift") and os.path.join(folder, name) not in excluded]
    return found


def imports_of(path):
    """The modules one .swift file imports."""
    with open(path, encoding="utf-8") as file:
        source = strip_comments_and_strings(file.read())
    return {m.group(1) for m in map(IMPORT.match, source.splitlines()) if m}


def module_name(target):
    """The module SwiftPM makes of a target (its c99name)."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", target)
    return "_" + name if name[:1].isdigit() else name


def declared_modules(dependency):
    """(name shown in reports, the modules it provides) for one target dependency."""
    if "byName" in dependency:
        name = dependency["byName"][0]
        return name, {module_name(name)}
    if "target" in dependency:
        name = dependency["target"][0]
        return name, {module_name(name)}
    if "product" in dependency:
        name, _package, aliases = dependency["product"][:3]
        modules = set(PRODUCT_MODULES.get(name, {name}))
        if aliases:  # moduleAliases: [original: alias]
            modules = {aliases.get(module, module) for module in modules}
        return name, modules
    fail(f"unknown dependency kind: {json.dumps(dependency)}")


def main():
    if len(sys.argv) > 2:
        fail("usage: check-dependencies.py [dump-package.json]")
    if len(sys.argv) == 2:
        with open(sys.argv[1], encoding="utf-8") as file:
            package = json.load(file)
    else:
        package = dump_package()

    problems = []
    checked = 0
    used_allowances = set()
    for target in package["targets"]:
        kind = target["type"]
        if kind not in ("regular", "executable", "test", "macro"):
            continue
        name = target["name"]
        default = "Tests" if kind == "test" else "Sources"
        directory = os.path.join(ROOT, target.get("path") or os.path.join(default, name))
        if not os.path.isdir(directory):
            problems.append(f"{name}: no folder {os.path.relpath(directory, ROOT)}")
            continue
        excluded = {os.path.normpath(os.path.join(directory, e)) for e in target.get("exclude", [])}
        files = swift_files(directory, target.get("sources") or [], excluded)
        if os.path.isdir(os.path.join(directory, "include")) or not files:
            continue  # a C target
        imports = set().union(*map(imports_of, files))
        imports -= SYSTEM_MODULES | {module_name(name)}
        checked += 1

        declared = {}  # module -> the dependency that provides it
        for dependency in target.get("dependencies", []):
            shown, modules = declared_modules(dependency)
            if not modules & imports:
                if ALLOWED.get((name, shown)) == "declares":
                    used_allowances.add((name, shown))
                else:
                    problems.append(f"{name} declares {shown} but never imports it")
            for module in modules:
                declared[module] = shown
        for module in sorted(imports - declared.keys()):
            if ALLOWED.get((name, module)) == "imports":
                used_allowances.add((name, module))
            else:
                problems.append(f"{name} imports {module} but does not declare it")

    for (target, module), kind in sorted(ALLOWED.items()):
        if (target, module) not in used_allowances:
            problems.append(
                f"ALLOWED lets {target} {'import' if kind == 'imports' else 'declare'} {module}, "
                "which it no longer does: remove the entry")

    for problem in problems:
        print(f"check-dependencies: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check-dependencies: {checked} targets match their imports")



if __name__ == "__main__":
    main()
