#!/usr/bin/env python3
"""Files a reader can hold. In src/, include/, shaders/, tests/ and tools/:
- a file over 800 lines says why in its head comment (a sentence with "over 800 lines");
- a file over 400 lines opens with an index of its sections: its head comment has a
  paragraph that names its "Sections", at least two (separated by ";", or one a
  line).
The head comment is the comment lines the file opens with (after `#pragma once`, a shebang or
`#version`). Prints each file that breaks a rule, with its length, and exits 1 if one does.

    python3 tests/repo/file_sizes.py [REPO_ROOT]
"""
import re
import sys
from pathlib import Path

FOLDERS = ['src', 'include', 'shaders', 'tests', 'tools']
SKIPPED = ['tests/data', 'tests/fuzz/corpus']
CODE_SUFFIXES = {'.cpp', '.hpp', '.h', '.glsl', '.comp', '.vert', '.frag', '.py', '.sh', '.bash'}
INDEXED_OVER = 400
EXPLAINED_OVER = 800
BANNER = re.compile(r'^\s*(?://|#)\s*-{3,}\s*(.+?)\s*-{3,}\s*$')  # ends a head comment
OPENING_LINES = re.compile(r'^(#pragma once|#!|#version|#include)')


# Files that break a rule today, each with the work that mends it. The check fails when one of
# them keeps the rules, so that this list only shrinks.
PENDING = {
}


def is_code(path: Path):
    if path.suffix in CODE_SUFFIXES:
        return True
    if path.suffix == '' and path.parent.name == 'tools':
        return path.read_bytes()[:2] == b'#!'
    return False


def head_comment(lines):
    """The comment lines the file opens with, their markers dropped."""
    head, started, in_docstring = [], False, False
    for line in lines:
        stripped = line.strip()
        if in_docstring:
            head.append(stripped.replace('"""', ''))
            if '"""' in stripped:
                in_docstring = False
            continue
        if not started and (OPENING_LINES.match(stripped) or not stripped):
            continue
        if stripped.startswith('"""'):
            head.append(stripped.strip('"'))
            in_docstring = stripped.count('"""') == 1
            started = True
            continue
        match = re.match(r'^(//+|#)\s?(.*)$', stripped)
        if not match or BANNER.match(stripped):
            break
        head.append(match.group(2))
        started = True
    return '\n'.join(head)


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    problems, checked = [], 0
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob('*')):
            rel = path.relative_to(root).as_posix()
            if not path.is_file() or any(rel.startswith(s) for s in SKIPPED) or not is_code(path):
                continue
            lines = path.read_text(encoding='utf-8').splitlines()
            checked += 1
            if len(lines) <= INDEXED_OVER:
                continue
            head = head_comment(lines)
            flat_head = ' '.join(head.split())
            if len(lines) > EXPLAINED_OVER and 'over 800 lines' not in flat_head:
                problems.append(f'{rel}: {len(lines)} lines, and its head comment does not say '
                                'why it is over 800 lines')
            index = re.search(r'\bSections\b[^\n]*((?:\n(?!\n)[^\n]*)*)', head)
            if index is None:
                problems.append(f'{rel}: {len(lines)} lines, and its head comment has no index '
                                'of its sections (a paragraph naming its "Sections")')
                continue
            entries = index.group(0).strip()
            if entries.count(';') + entries.count('\n') < 1:
                problems.append(f'{rel}: {len(lines)} lines, and its index names fewer than two '
                                'sections')
    broken_files = {problem.split(':')[0] for problem in problems}
    problems = [p for p in problems if p.split(':')[0] not in PENDING]
    for rel in sorted(set(PENDING) - broken_files):
        problems.append(f'{rel} keeps the rules now: remove it from PENDING')
    for problem in problems:
        print(problem)
    print(f'file sizes: {checked} files, {len(PENDING)} pending, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
