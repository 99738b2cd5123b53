"""The Dockerfile's stages run without a container, for ``tests/test_image.py``.

No container engine runs on the machines of the test suite, so the image is built the
way its own ``RUN`` lines would build it, on this machine:

- each stage has a folder that stands for its ``/`` (``root``): an absolute path in an
  instruction (``/src``, ``/runtime.lock``, ``/opt/venv``) is that path under the
  stage's folder;
- ``python`` and ``pip`` are a fresh virtualenv's, standing for the base image's Python:
  nothing of the project is installed there, and ``PYTHONPATH`` is unset;
- ``COPY`` copies exactly what it names, from the repository as the build context sees it
  (``.dockerignore`` applied) or, with ``--from``, from the folder of that stage;
- ``WORKDIR`` and ``ENV`` are kept, and each ``RUN`` runs as Docker runs it
  (``/bin/sh -c``), in the stage's ``WORKDIR``, with the stage's environment.

A ``RUN`` that needs a file no ``COPY`` brought fails as it would in ``docker build``;
:class:`StepFailed` names the step and what was missing in one line. ``RUN`` lines that
change the system rather than reading the project (``useradd``, ``mkdir``, ``chown``)
are left out: they need root inside a container, and the suite checks their words
(``tests/test_deploy.py``).
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import venv
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
SYSTEM_COMMANDS = ("useradd", "groupadd", "mkdir", "chown", "chmod", "apt-get")
"""The commands of a ``RUN`` that change the system: a ``RUN`` made only of these is
left out of the simulated build."""
PATH_IN_COMMAND = re.compile(r"(?<=[\s>=:\"'\[])/(?=[A-Za-z_])|^/(?=[A-Za-z_])")
"""An absolute path's leading slash in a command or a value (``> /runtime.lock``,
``--wheel-dir /wheels``, ``PATH=/opt/venv/bin:$PATH``)."""


@dataclass(frozen=True)
class Instruction:
    line: int
    """Where the instruction starts in the Dockerfile (1-based)."""
    name: str
    """``FROM``, ``COPY``, ``RUN``... in upper case."""
    arguments: str
    """Its arguments, continued lines joined, white space folded."""

    def __str__(self) -> str:
        text = f"{self.name} {self.arguments}"
        return f"Dockerfile:{self.line} {text if len(text) <= 90 else text[:89] + '…'}"


@dataclass
class Stage:
    name: str | None
    """The stage's ``AS`` name (None for an unnamed stage)."""
    base: str
    instructions: list[Instruction] = field(default_factory=list)


def parse(text: str) -> list[Stage]:
    """The stages of a Dockerfile: its instructions, comments left out, continued lines
    joined."""
    stages: list[Stage] = []
    pending: list[str] = []
    start = 0
    for number, line in enumerate(text.splitlines(), 1):
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if pending and line.lstrip().startswith("#"):
            continue  # a comment inside a continued instruction
        if not pending:
            start = number
        pending.append(line.rstrip())
        if line.rstrip().endswith("\\"):
            pending[-1] = pending[-1][:-1]
            continue
        words = " ".join(" ".join(pending).split())
        pending = []
        name, _, arguments = words.partition(" ")
        instruction = Instruction(start, name.upper(), arguments)
        if instruction.name == "FROM":
            base, _, alias = arguments.partition(" AS ")
            if not alias:
                base, _, alias = arguments.partition(" as ")
            stages.append(Stage(alias.strip() or None, base.strip()))
        elif not stages:
            raise ValueError(f"{instruction}: before any FROM")
        stages[-1].instructions.append(instruction)
    return stages


def stages() -> list[Stage]:
    """The repository's Dockerfile, parsed."""
    return parse(DOCKERFILE.read_text(encoding="utf-8"))


def ignored_patterns() -> list[str]:
    """``.dockerignore``'s patterns (no ``!`` exceptions are used there)."""
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    if any(pattern.startswith("!") for pattern in patterns):
        raise ValueError(".dockerignore: exceptions (!) are not simulated here")
    return patterns


def is_ignored(relative: str, patterns: list[str]) -> bool:
    """Whether the build context leaves out ``relative`` (a path under the repository, with
    ``/``): it or a folder above it matches a pattern; ``**/`` matches any depth."""
    parts = relative.split("/")
    for depth in range(1, len(parts) + 1):
        prefix = "/".join(parts[:depth])
        for pattern in patterns:
            pattern = pattern.strip("/")
            if fnmatch.fnmatchcase(prefix, pattern):
                return True
            if pattern.startswith("**/") and fnmatch.fnmatchcase(parts[depth - 1],
                                                                   pattern[3:]):
                return True
    return False


class StepFailed(AssertionError):
    """A step of the build could not work; the message is one line naming it."""


def one_line(instruction: Instruction, why: str) -> StepFailed:
    return StepFailed(f"{instruction}: {why}")


@dataclass
class StageRun:
    """A stage being built: its folder, working directory and environment."""

    stage: Stage
    root: Path
    env: dict[str, str]
    workdir: str = "/"

    def host(self, path: str) -> Path:
        """The folder or file under :attr:`root` that the stage's ``path`` is (relative
        paths from the working directory)."""
        absolute = path if path.startswith("/") else f"{self.workdir.rstrip('/')}/{path}"
        return self.root / absolute.lstrip("/")

    def mapped(self, text: str) -> str:
        """``text`` (a command, a value) with each absolute path under :attr:`root`."""
        return PATH_IN_COMMAND.sub(f"{self.root}/", text)


class Build:
    """The Dockerfile's stages (or ``parsed``) built into ``folder``, one sub-folder a
    stage, on the stand-in Python ``base`` (a virtualenv with pip and nothing else)."""

    def __init__(self, folder: Path, base: Path, parsed: list[Stage] | None = None) -> None:
        self.folder = folder
        self.base = base
        self.stages = stages() if parsed is None else parsed
        self.runs: dict[str, StageRun] = {}

    @staticmethod
    def make_base(folder: Path) -> Path:
        """A fresh virtualenv with pip, the stand-in for ``python:3.11-slim``'s Python."""
        venv.EnvBuilder(with_pip=True, symlinks=True, clear=True).create(folder)
        return folder

    def environment(self) -> dict[str, str]:
        """What a ``RUN`` starts from: the base image's (its ``python`` and ``pip`` first on
        ``PATH``), nothing of this test process's Python or project, and pip's download
        cache kept where the machine has it."""
        keep = ("HOME", "LANG", "LC_ALL", "TMPDIR", "XDG_CACHE_HOME", "PIP_INDEX_URL",
                "PIP_EXTRA_INDEX_URL", "PIP_TRUSTED_HOST", "PIP_CERT", "SSL_CERT_FILE")
        env = {key: os.environ[key] for key in keep if key in os.environ}
        env["PATH"] = f"{self.base / 'bin'}:/usr/bin:/bin"
        return env

    def run_stage(self, index: int) -> StageRun:
        """Build the stage ``index`` (its ``COPY --from`` stages must be built already)."""
        stage = self.stages[index]
        name = stage.name or str(index)
        root = self.folder / name
        shutil.rmtree(root, ignore_errors=True)
        (root / "tmp").mkdir(parents=True)
        run = StageRun(stage, root, self.environment())
        for instruction in stage.instructions:
            if instruction.name == "WORKDIR":
                run.workdir = instruction.arguments
                run.host(run.workdir).mkdir(parents=True, exist_ok=True)
            elif instruction.name == "ENV":
                self.set_env(run, instruction)
            elif instruction.name == "COPY":
                self.copy(run, instruction)
            elif instruction.name == "VOLUME":
                for path in re.findall(r"\"(/[^\"]+)\"", instruction.arguments):
                    run.host(path).mkdir(parents=True, exist_ok=True)
            elif instruction.name == "RUN":
                self.run(run, instruction)
        self.runs[name] = run
        return run

    @staticmethod
    def set_env(run: StageRun, instruction: Instruction) -> None:
        for key, value in re.findall(r"(\w+)=(\S+)", instruction.arguments):
            if key == "PIP_NO_CACHE_DIR":
                continue  # the machine's download cache serves the same files, hashes checked
            run.env[key] = run.mapped(value).replace("$PATH", run.env.get("PATH", ""))

    def copy(self, run: StageRun, instruction: Instruction) -> None:
        words = instruction.arguments.split()
        source_stage = next((word.split("=", 1)[1] for word in words
                             if word.startswith("--from=")), None)
        words = [word for word in words if not word.startswith("--")]
        *sources, destination = words
        target = run.host(destination)
        for source in sources:
            if source_stage is not None:
                origin = self.runs[source_stage].host(source)
            else:
                origin = ROOT / source
            if not origin.exists():
                raise one_line(instruction, f"{source} is not in the build context")
            if origin.is_dir():
                self.copy_tree(origin, target, from_context=source_stage is None)
            else:
                into = target / origin.name if destination.endswith("/") else target
                into.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, into)

    @staticmethod
    def copy_tree(origin: Path, target: Path, *, from_context: bool) -> None:
        patterns = ignored_patterns() if from_context else []

        def ignore(folder: str, names: list[str]) -> set[str]:
            if not from_context:
                return set()
            relative = Path(folder).relative_to(ROOT).as_posix()
            return {name for name in names
                    if is_ignored(f"{relative}/{name}".lstrip("./"), patterns)}

        shutil.copytree(origin, target, symlinks=True, ignore=ignore, dirs_exist_ok=True)

    @staticmethod
    def run(run: StageRun, instruction: Instruction) -> None:
        commands = [part.strip() for part in instruction.arguments.split("&&")]
        if all(command.split()[0] in SYSTEM_COMMANDS for command in commands):
            return
        done = subprocess.run(["/bin/sh", "-c", run.mapped(instruction.arguments)],
                              cwd=run.host(run.workdir), env=run.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=900, check=False)
        if done.returncode != 0:
            raise one_line(instruction, reason(done.stderr or done.stdout, run.root))


def reason(output: str, root: Path) -> str:
    """The one line of a failed command's output that says why (a missing module or file
    first), with the stage's folder taken out of its paths."""
    lines = [line.strip().replace(f"{root}/", "/") for line in output.splitlines()
             if line.strip()]
    for pattern in (r"No module named", r"No such file or directory", r"not found",
                    r"^ERROR:", r"Error"):
        for line in lines:
            if re.search(pattern, line):
                return line
    return lines[-1] if lines else "failed without a word"


def exec_form(arguments: str) -> list[str]:
    """The words of a ``CMD`` or ``HEALTHCHECK ... CMD`` in exec form (a JSON array)."""
    match = re.search(r"\[(.*)\]\s*$", arguments)
    if match is None:
        raise ValueError(f"not in exec form: {arguments}")
    return re.findall(r"\"([^\"]*)\"", match.group(1))


def python_of(run: StageRun) -> str:
    """The ``python`` that the stage's ``PATH`` finds."""
    found = shutil.which("python", path=run.env["PATH"])
    if found is None:
        raise AssertionError(f"no python on the stage's PATH {run.env['PATH']}")
    return found

