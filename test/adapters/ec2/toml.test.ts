import { describe, expect, it } from 'vitest';
import { TomlError } from '../../../functions/adapters/ec2/user-data/toml-cursor.ts';
import { parseToml, TomlFloat } from '../../../functions/adapters/ec2/user-data/toml-reader.ts';
import { stringifyToml } from '../../../functions/adapters/ec2/user-data/toml-writer.ts';

const DOCUMENT = `
# Bottlerocket settings as users write them
[settings]
motd = "Hello \\"node\\"\\tand \\u00e9"

[settings.kubernetes]
"cluster-name" = 'literal \\n stays'
api-server = """
https://example.com\\
  /path"""
banner = '''
raw \\ text'''
max-pods = 1_10
mask = 0o755
flags = 0xFF
bits = 0b101
ratio = 1.0
scale = -2.5e3
unset = -inf
labels.team = "data"
labels."example.com/owner" = "alice"
servers = [
  "a", # first
  "b",
]
matrix = [[1, 2], ["x"]]
point = { x = 1, y = { z = true } }

[[settings.container-registry.mirrors]]
registry = "docker.io"
endpoint = ["https://mirror.example.com"]

[[settings.container-registry.mirrors]]
registry = "quay.io"
`;

describe('TOML reading', () => {
  it('reads tables, dotted keys, every string form, numbers, arrays and inline tables', () => {
    // Act
    const document = parseToml(DOCUMENT);
    // Assess
    expect(document).toEqual({
      settings: {
        motd: 'Hello "node"\tand é',
        kubernetes: {
          'cluster-name': 'literal \\n stays',
          'api-server': 'https://example.com/path',
          banner: 'raw \\ text',
          'max-pods': 110,
          mask: 0o755,
          flags: 255,
          bits: 5,
          ratio: new TomlFloat(1),
          scale: new TomlFloat(-2500),
          unset: new TomlFloat(Number.NEGATIVE_INFINITY),
          labels: { team: 'data', 'example.com/owner': 'alice' },
          servers: ['a', 'b'],
          matrix: [[1, 2], ['x']],
          point: { x: 1, y: { z: true } },
        },
        'container-registry': {
          mirrors: [
            { registry: 'docker.io', endpoint: ['https://mirror.example.com'] },
            { registry: 'quay.io' },
          ],
        },
      },
    });
  });

  it.each([
    ['a key defined twice', 'a = 1\na = 2'],
    ['a table defined twice', '[a]\nx = 1\n[a]\ny = 2'],
    ['an unterminated string', 'a = "open'],
    ['a date', 'when = 1979-05-27T07:32:00Z'],
    ['two values on one line', 'a = 1 b = 2'],
    ['a missing value', 'a = '],
    ['an inline table extended later', 'a = { x = 1 }\na.y = 2'],
  ])('refuses %s, naming the line', (_, text) => {
    expect(() => parseToml(text)).toThrow(TomlError);
    expect(() => parseToml(text)).toThrow(/^toml line \d+: /);
  });
});

describe('TOML writing', () => {
  it('writes what it reads back to the same values', () => {
    // Prepare
    const document = parseToml(DOCUMENT);
    // Act
    const again = parseToml(stringifyToml(document));
    // Assess
    expect(again).toEqual(document);
  });

  it('puts plain values before sub-tables, quotes keys that are not bare and keeps floats floats', () => {
    // Act
    const text = stringifyToml({
      settings: {
        kubernetes: { 'node-labels': { 'karpenter.sh/nodepool': 'a' }, 'max-pods': 29 },
        ratio: new TomlFloat(2),
      },
    });
    // Assess
    expect(text).toBe(
      [
        '[settings]',
        'ratio = 2.0',
        '[settings.kubernetes]',
        'max-pods = 29',
        '[settings.kubernetes.node-labels]',
        '"karpenter.sh/nodepool" = "a"',
        '',
      ].join('\n'),
    );
  });
});
