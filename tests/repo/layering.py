#!/usr/bin/env python3
"""The parts of docs/architecture.md and what each may include: a part never reaches up into one
that uses it. Reads every #include "..." of src/, include/ and shaders/, finds the part of the
including file and of the included one, and fails naming each include that the table below does
not allow (and each file that sits in no part).

    python3 tests/repo/layering.py [REPO_ROOT]
"""
import re
import sys
from pathlib import Path

# C++ parts, lowest first; each may use the parts listed (and itself). docs/architecture.md
# draws the same table: change both.
CPP_USES = {
    'base': [],
    'scenario': ['base'],
    'flock': ['base', 'scenario'],
    'plan': ['base', 'scenario', 'flock'],
    'plan/export': ['base', 'scenario', 'plan'],
    'gl': ['base'],
    'flock/gpu': ['base', 'scenario', 'flock', 'gl'],
    'plan/gpu': ['base', 'scenario', 'flock', 'plan', 'gl', 'flock/gpu'],
    'render': ['base', 'scenario', 'flock', 'plan', 'gl', 'flock/gpu', 'plan/gpu'],
    'study': ['base', 'scenario', 'flock', 'gl', 'flock/gpu'],
    'viewer': ['base', 'scenario', 'flock', 'plan', 'plan/export', 'gl', 'flock/gpu', 'plan/gpu',
               'render', 'study', 'app'],
    'app': ['base', 'scenario', 'flock', 'plan', 'plan/export', 'gl', 'flock/gpu', 'plan/gpu',
            'render', 'study', 'viewer'],
    'paramgen': ['base', 'scenario', 'flock', 'flock/gpu', 'render'],
    'python': ['base', 'scenario', 'flock', 'plan', 'plan/export', 'gl', 'flock/gpu', 'plan/gpu',
               'render', 'study'],
}
# shaders/common/interface.h is the one header C++ and GLSL share: every part may use it.
SHARED_HEADER = 'shaders/common/interface.h'
SHADER_USES = {
    'common': [],
    'flock': ['common'],
    'plan': ['common'],
    'render': ['common', 'flock', 'plan'],
}
# Reaches that the layout still has, each with the work that removes it. The check fails when
# one of them is gone too, so that this list only shrinks.
KNOWN_REACHES = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


# Headers of a shader folder that C++ includes too, as the part whose GPU code that folder holds
# (shaders/render/bindings.h: the render passes' bindings).
SHADER_HEADER_PARTS = {'flock': 'flock/gpu', 'plan': 'plan/gpu', 'render': 'render'}


def cpp_part(path):
    parts = path.parts
    if parts[0] == 'shaders' and path.suffix == '.h' and len(parts) == 3:
        return SHADER_HEADER_PARTS.get(parts[1])
    if parts[0] == 'include' and parts[1] == 'murmur':
        rest = parts[2:]
    elif parts[0] == 'src':
        rest = parts[1:]
    else:
        return None
    if len(rest) < 2:
        return None
    if len(rest) >= 3 and f'{rest[0]}/{rest[1]}' in CPP_USES:
        return f'{rest[0]}/{rest[1]}'
    return rest[0] if rest[0] in CPP_USES else None


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    problems = []
    seen_reaches = set()
    sources = [p for d in ('src', 'include') for p in (root / d).rglob('*')
               if p.suffix in ('.cpp', '.hpp', '.h', '.def')]
    for source in sorted(sources):
        rel = source.relative_to(root)
        part = cpp_part(rel)
        if part is None:
            problems.append(f'{rel}: in no part of the layout')
            continue
        for name in INCLUDE.findall(source.read_text(encoding='utf-8')):
            if name.startswith('murmur/'):
                target = Path('include') / name
            elif (source.parent / name).exists():
                target = (source.parent / name).relative_to(root)
            elif (root / 'shaders' / name).exists():
                target = Path('shaders') / name
            else:
                continue  # generated (murmur/version.hpp) or a library's
            if str(target) == SHARED_HEADER:
                continue
            target_part = cpp_part(target)
            if target_part is None:
                if not str(target).startswith('include/murmur/'):
                    problems.append(f'{rel}: includes {target}, which is in no part')
                continue
            if target_part == part or target_part in CPP_USES[part]:
                continue
            if (str(rel), str(target)) in KNOWN_REACHES:
                seen_reaches.add((str(rel), str(target)))
                continue
            problems.append(f'{rel}: part {part} includes {target} of part {target_part}, '
                            f'which it may not use ({part} uses {", ".join(CPP_USES[part]) or "nothing"})')
    for shader in sorted((root / 'shaders').rglob('*')):
        if not shader.is_file():
            continue
        rel = shader.relative_to(root)
        if len(rel.parts) != 3 or rel.parts[1] not in SHADER_USES:
            problems.append(f'{rel}: not in one of shaders/{{{",".join(SHADER_USES)}}}/')
            continue
        part = rel.parts[1]
        for name in INCLUDE.findall(shader.read_text(encoding='utf-8')):
            target_part = name.split('/')[0]
            if target_part not in SHADER_USES:
                problems.append(f'{rel}: includes "{name}", not a path below shaders/')
            elif target_part != part and target_part not in SHADER_USES[part]:
                problems.append(f'{rel}: part {part} includes "{name}" of part {target_part}')
    for reach in sorted(KNOWN_REACHES - seen_reaches):
        problems.append(f'{reach[0]} no longer includes {reach[1]}: remove it from KNOWN_REACHES')
    for problem in problems:
        print(problem)
    print(f'layering: {len(sources)} C++ files, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
