"""Every ```python block of README.md runs, from a copy of the repository's samples.

Each block runs on its own (a fresh namespace) with the working directory set to
a temporary folder holding a copy of ``samples/``, as the README's relative paths
expect of the repository root; every file the block saves must exist afterwards.
"""

from __future__ import annotations

import itertools
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"

FENCE = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)
# mazeart.save(made, "x.svg"), mazeart.export.write(maze, "x.png", ...), save_maze(maze, "x.json")
WRITES = re.compile(r"\b(?:save|save_maze|write)\(\s*[\w.]+\s*,\s*[\"']([^\"']+)[\"']")


def python_blocks(text: str) -> list[str]:
    return FENCE.findall(text)


def written(code: str) -> list[str]:
    return WRITES.findall(code)


BLOCKS = python_blocks(README.read_text(encoding="utf-8"))


def test_readme_has_python_blocks():
    assert BLOCKS, "README.md has no ```python block"
    assert any(written(code) for code in BLOCKS), "no README block saves a file"


def test_the_parsers_find_blocks_and_outputs():
    code = 'import mazeart\nmazeart.save(m, "a.svg", solution=True)\n'
    text = f"x\n```python\n{code}```\n```sh\nls\n```\n"
    assert python_blocks(text) == [code]
    assert written(code) == ["a.svg"]
    assert written('mazeart.export.write(maze, "w.png", cell_size=8)') == ["w.png"]


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_block_runs(code, tmp_path):
    """Each block in a fresh interpreter, as a reader pastes it: nothing another test
    imported helps it."""
    shutil.copytree(REPO / "samples", tmp_path / "samples")
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    for name in written(code):
        out = tmp_path / name
        assert out.is_file() and out.stat().st_size > 0, f"{name} was not written"


# ----------------------------------------------------------------------------- shell commands

SHELL = re.compile(r"^```sh\n(.*?)^```$", re.MULTILINE | re.DOTALL)
CONSOLE = re.compile(r"^```\n(\$ .*?)^```$", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"`(mazeart [^`]* -o [^`]*)`")
# What CI runs verbatim itself (.ci/run): installing the package, the test suite, and the
# lint, format and type checks after it.
CI_OWN = re.compile(
    r"^(pip install\b[^#]*|pytest|ruff check \.|ruff format --check \.|mypy mazeart)\s*(#.*)?$"
)
# Commands that work for minutes (benchmarks, rebuilding the samples): they must start and
# work without failing for this long; a run that ends sooner must end well.
LONG = re.compile(r"^python (benchmarks|samples)/")
LONG_BUDGET = 5


def commands(text: str) -> list[tuple[str, str, str | None]]:
    """Every command of the README in document order: ``(kind, command, expected output)``.

    ``sh`` blocks give one command per line (a trailing backslash continues it);
    plain blocks of ``$ command`` lines followed by output give the command and the
    output it must print; inline code ``mazeart ... -o ...`` is a command too.
    """
    found: list[tuple[int, str, str, str | None]] = []
    for m in SHELL.finditer(text):
        body = re.sub(r"\s*\\\n\s*", " ", m.group(1))
        for line in body.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                found.append((m.start(), "sh", line.strip(), None))
    for m in CONSOLE.finditer(text):
        lines = m.group(1).rstrip("\n").splitlines()
        cmd, out = lines[0][2:], "\n".join(lines[1:])
        found.append((m.start(), "console", cmd, out))
    for m in INLINE.finditer(text):
        found.append((m.start(), "inline", m.group(1), None))
    return [(kind, cmd, out) for _, kind, cmd, out in sorted(found, key=lambda f: f[0])]


def runnable(command: str) -> str:
    """The command without the parts CI runs itself (``pip install ... && mazeart ...``
    runs ``mazeart ...``; the package is installed already)."""
    parts = [p.strip() for p in command.split("&&")]
    return " && ".join(p for p in parts if not CI_OWN.match(p))


def test_the_command_parsers():
    text = (
        "a `mazeart x.png -o y.svg` b `mazeart info FILE`\n"
        "```sh\npip install . && mazeart a.png -o b.svg\nmazeart c.png -o d.png \\\n"
        "    --cells 5   # note\n```\n"
        "```\n$ mazeart e -o f.bmp\nmazeart: error: ...\n```\n"
    )
    assert commands(text) == [
        ("inline", "mazeart x.png -o y.svg", None),
        ("sh", "pip install . && mazeart a.png -o b.svg", None),
        ("sh", "mazeart c.png -o d.png --cells 5   # note", None),
        ("console", "mazeart e -o f.bmp", "mazeart: error: ..."),
    ]
    assert runnable("pip install . && mazeart a.png -o b.svg") == "mazeart a.png -o b.svg"
    assert runnable("pip install '.[test]' && pytest") == ""
    assert runnable("ruff check . && ruff format --check . && mypy mazeart") == ""
    assert runnable("ruff check --fix .") == "ruff check --fix ."


def repo_copy(dest: Path) -> Path:
    """A copy of the repository as a fresh clone has it (tracked and new files)."""
    import subprocess

    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, capture_output=True,
        check=True,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, files):
        src = REPO / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def _environment(root: Path) -> dict[str, str]:
    import os
    import sys

    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["MAZEART_DATA_DIR"] = str(root / ".data")
    env["HOME"] = str(root / ".home")  # what a command installs (completion) stays in the copy
    (root / ".home").mkdir(exist_ok=True)
    env.pop("PYTEST_ADDOPTS", None)
    return env


def _play(command: str, root: Path, env: dict[str, str]) -> None:
    """A game command in a pseudo-terminal: its first maze is drawn, q quits cleanly."""
    pexpect = pytest.importorskip("pexpect")
    child = pexpect.spawn("bash", ["-c", command], cwd=str(root), env={**env, "TERM": "xterm"},
                          dimensions=(30, 100), encoding="utf-8", timeout=120)  # fmt: skip
    child.expect("q quits")
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, f"{command}: exit {child.exitstatus}"


def _studio(command: str, root: Path, env: dict[str, str]) -> None:
    """A studio command: it prints its address, answers there with the token, and Ctrl-C
    stops it cleanly (``$BROWSER`` set to ``true``: no browser opens)."""
    import json
    import signal
    import subprocess
    import urllib.request

    proc = subprocess.Popen(["bash", "-c", f"exec {command}"], cwd=root, text=True,
                            env={**env, "BROWSER": "true"}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    try:
        line = proc.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+)/\?token=(\S+)", line)
        assert found, f"{command}: printed {line!r} {proc.stderr.read() if not line else ''}"
        req = urllib.request.Request(found.group(1) + "/api/start",
                                     headers={"X-Mazeart-Token": found.group(2)})  # fmt: skip
        with urllib.request.urlopen(req, timeout=120) as res:
            assert json.loads(res.read())["picture"]["width"] > 0
    finally:
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 0, f"{command}: exit {proc.returncode}\n{err}"


def _long(command: str, root: Path, env: dict[str, str]) -> None:
    """A benchmark or the samples' script: it runs for :data:`LONG_BUDGET` seconds without
    failing; then it is stopped with whatever it started (a studio it serves, a browser)."""
    import os
    import signal
    import subprocess

    proc = subprocess.Popen(["bash", "-c", command], cwd=root, env=env, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)  # fmt: skip
    try:
        _, err = proc.communicate(timeout=LONG_BUDGET)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return
    assert proc.returncode == 0, f"{command}: exit {proc.returncode}\n{err}"


def _written(command: str) -> set[str]:
    """The files a command writes: after ``-o``, ``--animate`` or a redirection."""
    words = command.split("#")[0].replace(">>", " > ").split()
    return {words[i + 1].strip("'\"").rstrip("/") for i, w in enumerate(words[:-1])
            if w in ("-o", "--animate", ">") and words[i + 1] != "-"}  # fmt: skip


def chunks(found: list[tuple[str, str, str | None]], n: int) -> list[list[tuple]]:
    """The commands in ``n`` runs of about equal length, cut only where no later command
    names a file an earlier one wrote: each run works in its own copy of the repository."""
    written: list[set[str]] = []
    for _, command, _ in found:
        written.append((written[-1] if written else set()) | _written(command))
    mentions = [
        set(command.replace("'", " ").replace('"', " ").split()) - _written(command)
        for _, command, _ in found
    ]  # what each reads (or names), not what it writes
    later: set[str] = set()
    free_cut = [True] * (len(found) + 1)  # before command i, nothing after it reads before
    for i in range(len(found) - 1, 0, -1):
        later |= mentions[i]
        free_cut[i] = not any(name in later or f"{name}/" in " ".join(later)
                              for name in written[i - 1])  # fmt: skip
    cuts = [0]
    for k in range(1, n):
        want = round(k * len(found) / n)
        allowed = [i for i in range(cuts[-1] + 1, len(found)) if free_cut[i]]
        if allowed:
            cuts.append(min(allowed, key=lambda i: abs(i - want)))
    cuts.append(len(found))
    return [found[a:b] for a, b in itertools.pairwise(cuts) if b > a]


RUNNABLE = [(kind, runnable(command), expected)
            for kind, command, expected in commands(README.read_text(encoding="utf-8"))
            if runnable(command)]  # fmt: skip
RUNS = chunks(RUNNABLE, 3)


def test_the_runs_hold_every_command_once():
    assert len(RUNNABLE) > 30 and [c for run in RUNS for c in run] == RUNNABLE
    found = [
        ("sh", "mazeart a.png -o x.json", None),
        ("sh", "mazeart b.png -o y.svg", None),
        ("sh", "mazeart solve x.json -o z.png", None),
        ("sh", "mazeart c -o d.svg", None),
    ]
    assert chunks(found, 2) == [found[:3], found[3:]]  # x.json stays with its reader


@pytest.mark.parametrize("run", RUNS, ids=[f"run{i}" for i in range(len(RUNS))])
def test_every_readme_command_runs_verbatim(run, tmp_path):
    """The README's shell commands, its ``$`` examples (with the output shown) and its inline
    ``mazeart ... -o ...`` commands, run as written, in order, in a copy of the repository
    (in runs that share no file, each in a copy of its own)."""
    import subprocess

    root = repo_copy(tmp_path)
    env = _environment(root)
    for kind, cmd, expected in run:
        if re.match(r"mazeart play\b", cmd):
            _play(cmd, root, env)
            continue
        if re.match(r"mazeart studio\b", cmd):
            _studio(cmd, root, env)
            continue
        if LONG.match(cmd):
            _long(cmd, root, env)
            continue
        done = subprocess.run(["bash", "-c", cmd], cwd=root, env=env, capture_output=True,
                              text=True, timeout=600)  # fmt: skip
        if kind == "console":
            shown = (done.stdout + done.stderr).strip("\n")
            assert shown == expected, f"$ {cmd}\nprints:\n{shown}\nREADME shows:\n{expected}"
            assert done.returncode == (2 if "error:" in expected else 0), cmd
        else:
            assert done.returncode == 0, f"{cmd}\nexit {done.returncode}\n{done.stderr}"
            assert "Traceback" not in done.stderr, cmd
