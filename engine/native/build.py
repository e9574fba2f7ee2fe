"""Builds ssdprof-io, the portable engine's compiled I/O loop, from the C sources beside this file.

One recipe for every caller: scripts/setup.sh (this machine's compiler, into engine/native/build/),
the tests (cross-builds with zig) and scripts/freeze-engine.sh (bundled with the frozen engine).
Standard library only, so it runs before the engine's own packages are installed.

    python engine/native/build.py                      # this machine, its cc/gcc/clang, if the sources changed
    python engine/native/build.py --cc zig --target x86_64-windows-gnu --out /tmp/ssdprof-io.exe
    python engine/native/build.py --check              # exit 3 (and say why) when no compiler is found

Exit status: 0 built or up to date; 3 no compiler here (the engine then measures with its Python loop);
1 the compiler failed (its messages on standard error).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = sorted(HERE.glob("*.c"))
NO_COMPILER = 3
FLAGS = ["-O2", "-std=c11", "-Wall", "-Wextra"]
POSIX_FLAGS = ["-D_GNU_SOURCE", "-pthread"]
ZIG_TARGETS = ("x86_64-windows-gnu", "x86_64-macos", "aarch64-macos", "x86_64-linux-gnu", "aarch64-linux-gnu")


def default_output(target: str | None = None) -> Path:
    windows = (target or "").endswith("windows-gnu") or (target is None and os.name == "nt")
    return HERE / "build" / ("ssdprof-io.exe" if windows else "ssdprof-io")


def find_compiler(asked: str | None) -> list[str] | None:
    """The compiler's command: --cc (``zig`` means the ziglang package's ``zig cc``), $CC, or cc/gcc/clang;
    None when none of them is installed."""
    if asked == "zig":
        return [sys.executable, "-m", "ziglang", "cc"]
    named = asked or os.environ.get("CC")
    candidates = [shlex.split(named)] if named else [[name] for name in ("cc", "gcc", "clang")]
    for command in candidates:
        found = shutil.which(command[0]) if command else None
        if found:
            return [found, *command[1:]]
    return None


def command(compiler: list[str], target: str | None, output: Path) -> list[str]:
    flags = [*FLAGS]
    if target:
        flags = ["-target", target, *flags]
    windows = target.endswith("windows-gnu") if target else os.name == "nt"
    if not windows:
        flags += POSIX_FLAGS
    libraries = [] if windows else ["-lm"]
    return [*compiler, *flags, "-o", str(output), *map(str, SOURCES), *libraries]


def compiler_identity(compiler: list[str]) -> str:
    try:
        done = subprocess.run([*compiler, "--version"], capture_output=True, text=True, timeout=120, check=False)
    except OSError:
        return ""
    return (done.stdout or done.stderr).splitlines()[0] if (done.stdout or done.stderr) else ""


def inputs_digest(argv: list[str], identity: str) -> str:
    digest = hashlib.sha256()
    for source in [*SOURCES, HERE / "ssdprof_io.h"]:
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    digest.update("\0".join(argv[1:] if argv[0] == sys.executable else argv).encode() + identity.encode())
    return digest.hexdigest()


def build(compiler: list[str], target: str | None, output: Path, *, force: bool = False) -> int:
    output.parent.mkdir(parents=True, exist_ok=True)
    argv = command(compiler, target, output)
    stamp = output.with_name(output.name + ".inputs")
    digest = inputs_digest(argv, compiler_identity(compiler))
    if not force and output.exists() and stamp.exists() and stamp.read_text() == digest:
        print(f"native: up to date: {output}", file=sys.stderr)
        return 0
    done = subprocess.run(argv, cwd=HERE, check=False)
    output.with_suffix(".pdb").unlink(missing_ok=True)  # zig's debug database for Windows builds
    if done.returncode:
        print(f"native: the compiler failed (status {done.returncode}): {shlex.join(argv)}", file=sys.stderr)
        return 1
    stamp.write_text(digest)
    print(f"native: built {output}", file=sys.stderr)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cc", help="the compiler command (default: $CC, else cc, gcc or clang; 'zig': the ziglang package)")
    parser.add_argument("--target", choices=ZIG_TARGETS, help="cross-build for this target (with --cc zig)")
    parser.add_argument("--out", type=Path, help="the program to write (default: engine/native/build/ssdprof-io)")
    parser.add_argument("--force", action="store_true", help="build even when the sources have not changed")
    parser.add_argument("--check", action="store_true", help="only say whether a compiler is here")
    args = parser.parse_args()
    compiler = find_compiler(args.cc)
    if compiler is None:
        print("native: no C compiler here (cc, gcc or clang on PATH, or $CC): the portable engine will measure "
              "with its Python loop, slower at depth (install one, e.g. apt install gcc, xcode-select --install, "
              "or pass --cc)", file=sys.stderr)
        return NO_COMPILER
    if args.check:
        print(f"native: compiler {shlex.join(compiler)}", file=sys.stderr)
        return 0
    return build(compiler, args.target, args.out or default_output(args.target), force=args.force)


if __name__ == "__main__":
    sys.exit(main())
