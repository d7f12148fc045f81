"""The README test can fail: each check it makes is shown failing on a README
written wrong (a wrong output, a wrong value, an unmarked block, a file left
in the clone), and passing on the same README written right.

    python3 -m pytest Tests/ReadmeTests       (make test-readme runs it first)
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from markdown_blocks import ReadmeError, read_blocks, transcript  # noqa: E402
from python_values import literal_prefix  # noqa: E402


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def test_blocks_keep_their_info_string_note_and_list_indentation(tmp_path: Path) -> None:
    md = write(tmp_path / "R.md", """
        Intro.

        <!-- readme-test: file ~/a/main.rs -->
        ```rust,no_run
        fn main() {}
        ```

        - item:

          ```sh
          echo indented
          ```
        """)
    first, second = read_blocks(md, "R.md")
    assert (first.lang, first.attrs, first.note.file, first.line) == ("rust", ["no_run"], "~/a/main.rs", 4)
    assert first.text == "fn main() {}\n"
    assert (second.lang, second.text, second.note.file) == ("sh", "echo indented\n", None)


@pytest.mark.parametrize("note, message", [
    ("<!-- readme-test: skip: -->", "needs a reason"),
    ("<!-- readme-test: run twice -->", "unknown readme-test note"),
])
def test_a_note_the_test_cannot_read_is_an_error(tmp_path: Path, note: str, message: str) -> None:
    md = write(tmp_path / "R.md", f"{note}\n```sh\ntrue\n```\n")
    with pytest.raises(ReadmeError, match=message):
        read_blocks(md)


def test_an_unclosed_fence_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ReadmeError, match="never closed"):
        read_blocks(write(tmp_path / "R.md", "```sh\ntrue\n"))


def test_a_transcript_pairs_each_command_with_its_output() -> None:
    steps = transcript("$ make \\\n  x\n$ echo a\na\nb\n")
    assert steps == [("make \\\n  x", None), ("echo a", "a\nb\n")]
    assert transcript("echo a\n") is None


def test_a_value_comment_starts_with_a_literal_and_may_go_on_in_prose() -> None:
    assert literal_prefix(" {'a': False}   a new dict") == ("{'a': False}", {"a": False})
    assert literal_prefix(" [] here; else e.g. ['x']") == ("[]", [])
    assert literal_prefix(" a read-only Mapping") is None


def run_readme(repo: Path, text: str) -> subprocess.CompletedProcess:
    write(repo / "README.md", text)
    return subprocess.run([sys.executable, str(HERE / "readme_test.py"), "--repo", str(repo), "--lib", str(repo),
                           "README.md"], capture_output=True, text=True, timeout=120)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A clone stand-in: a git work tree with a (fake) library to point at."""
    root = tmp_path / "clone"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "libpathconfig.so").write_text("")
    (root / ".gitignore").write_text("libpathconfig.so\nREADME.md\n")
    return root


SHELL_WITH_OUTPUT = """
    ```sh
    printf 'one\\ntwo\\n'
    ```

    <!-- readme-test: output -->
    ```text
    {shown}
    ```
    """


def test_an_output_block_must_be_what_the_block_before_printed(repo: Path) -> None:
    right = run_readme(repo, SHELL_WITH_OUTPUT.format(shown="one\n    two"))
    assert right.returncode == 0 and "2 passed, 0 failed, 0 skipped" in right.stdout, right.stdout + right.stderr
    wrong = run_readme(repo, SHELL_WITH_OUTPUT.format(shown="one\n    three"))
    assert wrong.returncode == 1 and "1 passed, 1 failed" in wrong.stdout, wrong.stdout
    assert "the README shows" in wrong.stdout


def test_a_transcript_command_must_print_what_is_shown(repo: Path) -> None:
    assert run_readme(repo, "```console\n$ echo hi\nhi\n$ true\n```\n").returncode == 0
    failed = run_readme(repo, "```console\n$ echo hi\nho\n```\n")
    assert failed.returncode == 1 and "but it printed" in failed.stdout, failed.stdout
    failed = run_readme(repo, "```console\n$ false\n```\n")
    assert failed.returncode == 1 and "exit status 1" in failed.stdout, failed.stdout


def test_a_python_value_comment_must_be_the_value(repo: Path) -> None:
    assert run_readme(repo, "```python\nx = [1, 2]\nlen(x)  # 2\n```\n").returncode == 0
    wrong = run_readme(repo, "```python\nx = [1, 2]\nlen(x)\n# 3   the length\n```\n")
    assert wrong.returncode == 1 and "the README shows 3, the code gives 2" in wrong.stdout, wrong.stdout


def test_a_ruby_block_runs_and_its_output_block_is_checked(repo: Path) -> None:
    right = run_readme(repo, "```ruby\nputs [1, 2].sum\n```\n\n<!-- readme-test: output -->\n```text\n3\n```\n")
    assert right.returncode == 0 and "2 passed, 0 failed" in right.stdout, right.stdout + right.stderr
    wrong = run_readme(repo, "```ruby\nputs [1, 2].sum\n```\n\n<!-- readme-test: output -->\n```text\n4\n```\n")
    assert wrong.returncode == 1 and "the README shows" in wrong.stdout, wrong.stdout
    failing = run_readme(repo, "```ruby\nraise 'no'\n```\n")
    assert failing.returncode == 1 and "exit status 1" in failing.stdout, failing.stdout


def test_a_block_nothing_can_run_must_be_marked(repo: Path) -> None:
    unmarked = run_readme(repo, "```\nsome text\n```\n")
    assert unmarked.returncode == 1 and "no runner for" in unmarked.stdout, unmarked.stdout
    marked = run_readme(repo, "<!-- readme-test: skip: a synopsis -->\n```\nsome text\n```\n")
    assert marked.returncode == 0 and "0 passed, 0 failed, 1 skipped" in marked.stdout, marked.stdout


def test_a_block_that_leaves_a_file_in_the_clone_fails(repo: Path) -> None:
    left = run_readme(repo, "```sh\ntouch made-by-a-block\n```\n")
    assert left.returncode == 1 and "left files in the clone" in left.stdout and "made-by-a-block" in left.stdout


def test_files_writing_the_same_package_share_its_build_and_nothing_else(tmp_path: Path) -> None:
    from readme_test import Document

    manifest = '// swift-tools-version:6.0\nimport PackageDescription\nlet package = Package(name: "MyApp")\n'
    (tmp_path / "repo").mkdir()

    def document(name: str, text: str) -> Path:
        doc = Document(tmp_path / "repo", tmp_path, tmp_path, tmp_path / name, tmp_path / "cargo",
                       tmp_path / "swift-packages")
        md = write(tmp_path / f"{name}.md", f"<!-- readme-test: file ~/MyApp/Package.swift -->\n```swift\n{text}```\n")
        doc.run_block(read_blocks(md)[0])
        return doc.home / "MyApp"

    first = document("first", manifest)
    (first / ".build").mkdir()
    (first / "Sources").mkdir()
    (first / "Sources" / "left-by-first.swift").write_text("")
    second = document("second", manifest)
    assert second.resolve() == first.resolve() and second != first
    assert (second / ".build").is_dir() and not (second / "Sources").exists()
    assert (second / "Package.swift").read_text() == manifest
    assert (second.resolve().parent / "libpathconfig").resolve() == (tmp_path / "repo").resolve()
    other = document("other", manifest.replace("MyApp", "Other"))
    assert other.resolve() != first.resolve() and not (other / ".build").exists()
