#!/usr/bin/env python3
"""Citations that hold: every doc section that code, shaders, tests, tools and docs cite
(`docs/model.md, "Branching"`, `README "Install"`) names a heading that exists in that file,
and every repository path they name (`src/flock/model.cpp`, `shaders/render/heads.vert`)
exists. A cited title may be the start of a longer heading ("Local exposure" for "Local
exposure: flocks denser than the world"). Citations wrapped over comment lines are joined
first. Prints each broken citation as FILE:LINE and exits 1 if there is one.

    python3 tests/repo/citations.py [REPO_ROOT]
"""
import re
import sys
from pathlib import Path

SCANNED = ['src', 'include', 'shaders', 'tests', 'tools', 'docs', 'cmake', 'scenarios',
           'README.md', 'BENCHMARKS.md', 'CMakeLists.txt', '.ci']
SKIPPED = ['tests/data', 'tests/fuzz/corpus', 'docs/images']
TEXT_SUFFIXES = {'.cpp', '.hpp', '.h', '.def', '.glsl', '.comp', '.vert', '.frag', '.md', '.py',
                 '.sh', '.bash', '.cmake', '.in', '.toml', '.txt', ''}
# Paths that docs name on purpose though no such file exists: examples of error messages and
# files that the build or a command writes.
NOT_IN_THE_TREE = {
    'shaders/steer.comp', 'shaders/b.glsl', 'shaders/a.glsl',  # docs/gpu.md's include errors
    'shaders/no_such_file.comp',  # the missing file of a test of that error
    'scenarios/x.toml',  # the scenario of the docs' error-message examples
}
NOT_IN_THE_TREE_PREFIXES = ('build/', 'out/')

QUOTE_OPEN = '"\u201c'
QUOTE_CLOSE = '"\u201d'
DOC = r'(docs/[\w-]+\.md|README(?:\.md)?)'
TITLE = r'[' + QUOTE_OPEN + r']([^' + QUOTE_CLOSE + r'\n]+)[' + QUOTE_CLOSE + r']'
CITATION = re.compile(DOC + r"(?:'s)?(?:,\s*|\s+\(|\s+)(?:section\s+)?" + TITLE)
MORE_TITLES = re.compile(r'\s*(?:,\s*and|,|and)\s*' + TITLE)
PATH = re.compile(r'(?<![\w/.-])((?:src|include|shaders|tests|tools|docs|scenarios|cmake)/'
                  r'[\w./-]*\w\.(?:cpp|hpp|h|def|glsl|comp|vert|frag|md|toml|py|sh|cmake|in))'
                  r'(?![\w/-])')
# A comment or quote marker at the start of a continued line, dropped when lines are joined.
CONTINUATION = re.compile(r'\n[ \t]*(?:///?|#+(?=\s)|\*|>|;+|--)?[ \t]*')


# A paragraph's bold lead is a section too, as in the model's numbered steps (**7. Births by
# energy.** A survivor...) and the GPU notes' bullets (- **Texel fetches.** The grid...).
BOLD_LEAD = re.compile(r'\s*(?:[-*]\s+|\d+\.\s+)?\*\*([^*]+?)\*\*')
NUMBERING = re.compile(r'^\d+\.\s+')


def headings(doc: Path):
    titles, fenced = [], False
    for line in doc.read_text(encoding='utf-8').splitlines():
        if line.startswith('```'):
            fenced = not fenced
            continue
        if fenced:
            continue
        if re.match(r'#{1,6} ', line):
            title = line.lstrip('#').strip()
        elif (lead := BOLD_LEAD.match(line)):
            title = lead.group(1).strip().rstrip('.:')
        else:
            continue
        titles.append(NUMBERING.sub('', title.replace('`', '')))
    return titles


def names_a_heading(title, titles):
    title = title.replace('`', '').strip()
    for heading in titles:
        if heading == title:
            return True
        if heading.startswith(title) and heading[len(title)] in ' :(,.-\u2014':
            return True
    return False


def joined_with_lines(text):
    """The text with line breaks (and the comment markers that continue them) as spaces, and
    for each character of it the line it came from."""
    out, line_of, line = [], [], 1
    position = 0
    for m in CONTINUATION.finditer(text):
        chunk = text[position:m.start()]
        out.append(chunk)
        line_of.extend([line] * len(chunk))
        out.append(' ')
        line_of.append(line)
        line += 1
        position = m.end()
    out.append(text[position:])
    line_of.extend([line] * (len(text) - position))
    return ''.join(out), line_of


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    files = []
    for entry in SCANNED:
        path = root / entry
        candidates = [path] if path.is_file() else sorted(p for p in path.rglob('*') if p.is_file())
        for p in candidates:
            rel = p.relative_to(root).as_posix()
            if any(rel.startswith(s) for s in SKIPPED) or p.suffix not in TEXT_SUFFIXES:
                continue
            files.append(p)
    heading_cache = {}
    problems, sections, paths = [], 0, 0
    for source in files:
        rel = source.relative_to(root).as_posix()
        try:
            text = source.read_text(encoding='utf-8')
        except UnicodeDecodeError:
            continue
        joined, line_of = joined_with_lines(text)
        for m in CITATION.finditer(joined):
            doc_name = m.group(1)
            if doc_name == 'README':
                doc_name = 'README.md'
            doc = root / doc_name
            titles_cited = [m.group(2)]
            end = m.end()
            while (more := MORE_TITLES.match(joined, end)):
                titles_cited.append(more.group(1))
                end = more.end()
            where = f'{rel}:{line_of[m.start()]}'
            if not doc.is_file():
                problems.append(f'{where}: cites {doc_name}, which does not exist')
                continue
            if doc not in heading_cache:
                heading_cache[doc] = headings(doc)
            for title in titles_cited:
                if not title.strip():
                    continue  # a C++ string literal broken after the comma, then "step 6)" unquoted
                sections += 1
                if not names_a_heading(title, heading_cache[doc]):
                    problems.append(f'{where}: cites {doc_name}, "{title}": no such section')
        for m in PATH.finditer(text):
            cited = m.group(1)
            if cited in NOT_IN_THE_TREE or cited.startswith(NOT_IN_THE_TREE_PREFIXES):
                continue
            if '*' in cited or (root / cited).exists():
                paths += 1
                continue
            problems.append(f'{rel}:{text.count(chr(10), 0, m.start()) + 1}: names {cited}, '
                            'which does not exist')
    for problem in problems:
        print(problem)
    print(f'citations: {sections} doc sections and {paths} paths cited in {len(files)} files, '
          f'{len(problems)} broken')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
