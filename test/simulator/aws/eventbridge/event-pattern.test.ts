/**
 * EventBridge's event-pattern language on the examples of the EventBridge user guide's "Event
 * patterns" and "Content filtering" pages and the comparison operators' table.
 */
import { describe, expect, it } from 'vitest';
import {
  type EventPattern,
  InvalidEventPatternError,
  matchesEventPattern,
  validateEventPattern,
} from '../../../../simulator/aws/eventbridge/event-pattern.ts';

/** The user guide's example event, an EC2 state change, with the content-filtering page's fields. */
const EVENT = {
  version: '0',
  id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
  'detail-type': 'EC2 Instance State-change Notification',
  source: 'aws.ec2',
  account: '111122223333',
  time: '2017-12-22T18:43:48Z',
  region: 'us-west-1',
  resources: ['arn:aws:ec2:us-west-1:123456789012:instance/i-1234567890abcdef0'],
  detail: {
    'instance-id': 'i-1234567890abcdef0',
    state: 'running',
    'c-count': 5,
    'd-count': 7,
    'x-limit': 301.8,
    source: 'EventBridge',
    FileName: 'image.PNG',
    FilePath: '/usr/lib/node',
    sourceIPAddress: '10.0.0.255',
    location: 'New York',
    day: 'Monday',
    'x-empty': '',
    'x-null': null,
    person: { name: 'Ada' },
    tags: ['blue', 'green'],
  },
};

const cases: readonly [string, EventPattern, boolean][] = [
  [
    'exact values of several fields, nested',
    {
      source: ['aws.ec2'],
      'detail-type': ['EC2 Instance State-change Notification'],
      detail: { state: ['running'] },
    },
    true,
  ],
  ['one of several values', { detail: { state: ['pending', 'running'] } }, true],
  ['a value of no match', { detail: { state: ['terminated'] } }, false],
  ['a field the event lacks', { detail: { 'instance-type': ['m5.large'] } }, false],
  ['matching is case-sensitive', { source: ['AWS.EC2'] }, false],
  [
    'an array matches when any element does',
    { resources: ['arn:aws:ec2:us-west-1:123456789012:instance/i-1234567890abcdef0'] },
    true,
  ],
  ['prefix', { time: [{ prefix: '2017-12-22' }] }, true],
  ['prefix, of no match', { time: [{ prefix: '2018' }] }, false],
  [
    'prefix ignoring case',
    { detail: { source: [{ prefix: { 'equals-ignore-case': 'eventb' } }] } },
    true,
  ],
  ['suffix', { detail: { FileName: [{ suffix: '.PNG' }] } }, true],
  ['suffix is case-sensitive', { detail: { FileName: [{ suffix: '.png' }] } }, false],
  [
    'suffix ignoring case',
    { detail: { FileName: [{ suffix: { 'equals-ignore-case': '.png' } }] } },
    true,
  ],
  ['equals-ignore-case', { detail: { state: [{ 'equals-ignore-case': 'RUNNING' }] } }, true],
  ['anything-but a string', { detail: { state: [{ 'anything-but': 'initializing' }] } }, true],
  ['anything-but the value itself', { detail: { state: [{ 'anything-but': 'running' }] } }, false],
  ['anything-but a number', { detail: { 'x-limit': [{ 'anything-but': 123 }] } }, true],
  [
    'anything-but a list',
    { detail: { state: [{ 'anything-but': ['stopped', 'overloaded'] }] } },
    true,
  ],
  [
    'anything-but a list holding the value',
    { detail: { state: [{ 'anything-but': ['stopped', 'running'] }] } },
    false,
  ],
  [
    'anything-but a list of numbers',
    { detail: { 'c-count': [{ 'anything-but': [100, 200, 300] }] } },
    true,
  ],
  ['anything-but a prefix', { detail: { state: [{ 'anything-but': { prefix: 'init' } }] } }, true],
  [
    'anything-but the prefix it has',
    { detail: { state: [{ 'anything-but': { prefix: 'run' } }] } },
    false,
  ],
  [
    'anything-but a suffix',
    { detail: { FileName: [{ 'anything-but': { suffix: '.txt' } }] } },
    true,
  ],
  [
    'anything-but ignoring case',
    { detail: { state: [{ 'anything-but': { 'equals-ignore-case': 'RUNNING' } }] } },
    false,
  ],
  [
    'anything-but a wildcard',
    { detail: { FilePath: [{ 'anything-but': { wildcard: '*/lib/*' } }] } },
    false,
  ],
  [
    'anything-but never matches a missing field',
    { detail: { missing: [{ 'anything-but': 'x' }] } },
    false,
  ],
  [
    'numeric range',
    {
      detail: {
        'c-count': [{ numeric: ['>', 0, '<=', 5] }],
        'd-count': [{ numeric: ['<', 10] }],
        'x-limit': [{ numeric: ['=', 3.018e2] }],
      },
    },
    true,
  ],
  ['numeric out of range', { detail: { 'c-count': [{ numeric: ['>', 5] }] } }, false],
  ['numeric never matches a string', { detail: { state: [{ numeric: ['>', 0] }] } }, false],
  ['cidr, inside the block', { detail: { sourceIPAddress: [{ cidr: '10.0.0.0/24' }] } }, true],
  ['cidr, outside the block', { detail: { sourceIPAddress: [{ cidr: '10.0.1.0/24' }] } }, false],
  ['exists true of a field present', { detail: { state: [{ exists: true }] } }, true],
  ['exists false of a field present', { detail: { state: [{ exists: false }] } }, false],
  ['exists false of a field absent', { detail: { 'no-such-field': [{ exists: false }] } }, true],
  [
    'exists looks at leaves only: an object is no value',
    { detail: { person: [{ exists: true }] } },
    false,
  ],
  ['exists of a null value', { detail: { 'x-null': [{ exists: true }] } }, true],
  ['null matches null', { detail: { 'x-null': [null] } }, true],
  ['the empty string matches the empty string', { detail: { 'x-empty': [''] } }, true],
  ['wildcard', { detail: { FilePath: [{ wildcard: '/usr/*/node' }] } }, true],
  ['wildcard, of no match', { detail: { FilePath: [{ wildcard: '/opt/*' }] } }, false],
  ['and across fields', { detail: { location: ['New York'], day: ['Monday'] } }, true],
  [
    'and across fields, one failing',
    { detail: { location: ['New York'], day: ['Tuesday'] } },
    false,
  ],
  [
    '$or of patterns, one matching',
    {
      detail: {
        $or: [{ 'c-count': [{ numeric: ['>', 10] }] }, { 'd-count': [{ numeric: ['<', 10] }] }],
      },
    },
    true,
  ],
  [
    '$or of patterns, none matching',
    { detail: { $or: [{ 'c-count': [{ numeric: ['>', 10] }] }, { state: ['stopped'] }] } },
    false,
  ],
  [
    '$or at the top, beside other fields',
    {
      source: ['aws.ec2'],
      $or: [{ 'detail-type': ['nothing'] }, { detail: { state: ['running'] } }],
    },
    true,
  ],
  ['an array element by exact value', { detail: { tags: ['green'] } }, true],
  ['an array element by prefix', { detail: { tags: [{ prefix: 'bl' }] } }, true],
];

describe('EventBridge event patterns', () => {
  it.each(cases)('%s', (_name, pattern, matches) => {
    // Prepare: the event above

    // Act
    const matched = matchesEventPattern(pattern, EVENT);

    // Assess
    expect(matched).toBe(matches);
  });

  it.each([
    ['an operator it does not know', { detail: { state: [{ 'starts-with': 'run' }] } }],
    ['two operators in one matcher', { detail: { state: [{ prefix: 'r', suffix: 'g' }] } }],
    ['a numeric comparison it does not know', { detail: { n: [{ numeric: ['>', 0, '~', 5] }] } }],
    ['a numeric bound that is not a number', { detail: { n: [{ numeric: ['>', '0'] }] } }],
    ['exists of something other than a boolean', { detail: { state: [{ exists: 'yes' }] } }],
    ['a cidr that is no IPv4 block', { detail: { ip: [{ cidr: '10.0.0.0/33' }] } }],
    [
      'anything-but of an unknown operator',
      { detail: { state: [{ 'anything-but': { contains: 'x' } }] } },
    ],
    ['a field that is a string, not a list', { source: 'aws.ec2' }],
    ['$or that is not a list of patterns', { $or: { source: ['aws.ec2'] } }],
  ])('refuses %s, as PutRule refuses the pattern', (_name, pattern) => {
    // Prepare: the pattern above, whatever the event

    // Act
    const validating = () => validateEventPattern(pattern);

    // Assess
    expect(validating).toThrow(InvalidEventPatternError);
  });

  it('accepts every pattern the table above matches by', () => {
    // Prepare: the patterns of the table

    // Act
    const validating = () => {
      for (const [, pattern] of cases) validateEventPattern(pattern);
    };

    // Assess
    expect(validating).not.toThrow();
  });
});
