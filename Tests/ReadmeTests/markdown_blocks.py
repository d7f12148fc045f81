"""The fenced code blocks of a Markdown file, with their `readme-test` notes.

A block is a fence (```` ``` ```` or ``~~~``, possibly indented inside a list
item) with an info string (```` ```rust,no_run ````: language ``rust``,
attributes ``["no_run"]``). An HTML comment on the line just above the fence
(blank lines between are allowed) tells the README test what to do with a
block that is not simply run:

    <!-- readme-test: skip: WHY -->       not run (the reason is required and reported)
    <!-- readme-test: output -->          the expected standard output of the block run before it
    <!-- readme-test: file ~/PATH -->     the contents of a file the blocks after it use
    <!-- readme-test: cwd ~/DIR -->       a shell block that runs in that directory, not the clone's top

Several notes may share one comment, separated by ``;``. Rendered Markdown
hides the comments; the reader sees the block as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
NOTE = re.compile(r"<!--\s*readme-test:(?P<body>.*?)-->", re.DOTALL)


class ReadmeError(Exception):
    """A README that the test cannot read: an unclosed fence, an unknown note."""


@dataclass
class Note:
    """What a `<!-- readme-test: ... -->` comment says about the block below it."""

    skip: Optional[str] = None
    output: bool = False
    file: Optional[str] = None
    cwd: Optional[str] = None

    @staticmethod
    def parse(body: str, where: str) -> "Note":
        note = Note()
        for part in (p.strip() for p in body.split(";")):
            if not part:
                continue
            word, _, rest = part.partition(" ")
            if part.startswith("skip:"):
                note.skip = part[len("skip:"):].strip()
                if not note.skip:
                    raise ReadmeError(f"{where}: 'skip:' needs a reason")
            elif part == "output":
                note.output = True
            elif word in ("file", "cwd") and rest.strip():
                setattr(note, word, rest.strip())
            else:
                raise ReadmeError(f"{where}: unknown readme-test note {part!r} "
                                  "(skip: WHY, output, file ~/PATH, cwd ~/DIR)")
        return note


@dataclass
class Block:
    """One fenced block: where it is, its info string, its text (dedented)."""

    path: Path
    line: int
    info: str
    text: str
    note: Note = field(default_factory=Note)

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def lang(self) -> str:
        return re.split(r"[,\s]", self.info, maxsplit=1)[0].lower() if self.info else ""

    @property
    def attrs(self) -> List[str]:
        return [a for a in re.split(r"[,\s]+", self.info)[1:] if a]


def read_blocks(path: Path, shown_as: Optional[str] = None) -> List[Block]:
    """Every fenced block of `path`, in order, with its note. `shown_as` names
    the file in messages (a path relative to the repository)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    name = Path(shown_as) if shown_as else path
    blocks: List[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m.group("indent"), m.group("fence"), m.group("info").strip()
        start = i
        body: List[str] = []
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if close and close.group("fence")[0] == fence[0] and len(close.group("fence")) >= len(fence) \
                    and not close.group("info").strip():
                break
            body.append(lines[i])
            i += 1
        else:
            raise ReadmeError(f"{name}:{start + 1}: fence {fence} is never closed")
        i += 1
        text = "\n".join(_dedent(body, len(indent))) + "\n"
        block = Block(path=name, line=start + 1, info=info, text=text)
        note_text = _note_above(lines, start)
        if note_text is not None:
            block.note = Note.parse(note_text, f"{name}:{start + 1}")
        blocks.append(block)
    return blocks


def _dedent(body: List[str], indent: int) -> List[str]:
    """Undo the indentation of a block inside a list item (the fence's own)."""
    out = []
    for line in body:
        strip = min(indent, len(line) - len(line.lstrip(" \t")))
        out.append(line[strip:])
    return out


def _note_above(lines: List[str], fence_index: int) -> Optional[str]:
    """The body of a readme-test comment that ends on the nearest non-blank line above the fence."""
    j = fence_index - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    if j < 0 or not lines[j].strip().endswith("-->"):
        return None
    k = j
    while k >= 0 and "<!--" not in lines[k]:
        k -= 1
    m = NOTE.search("\n".join(lines[max(k, 0): j + 1]))
    return m.group("body") if m else None


def transcript(text: str) -> Optional[List[tuple]]:
    """A shell block written as a terminal session (`$ command` lines, each
    followed by the output it prints) as [(command, expected output or None)];
    None when the block is a plain script. A command with no output lines
    after it only has to succeed; one with output lines must print exactly them
    (standard output and error together, as a terminal shows them)."""
    lines = text.rstrip("\n").split("\n")
    if not lines or not lines[0].startswith("$ "):
        return None
    steps: List[tuple] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ReadmeError(f"transcript line {i + 1} is neither a command nor its output: {lines[i]!r}")
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command += "\n" + lines[i]
        i += 1
        output: List[str] = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        steps.append((command, "\n".join(output) + "\n" if output else None))
    return steps
