/** The malformed inputs the OpenAPI fuzz test combines with every operation. */

const LONG = 'x'.repeat(100_000);
const UNICODE = 'ünï©ødé ✓ 漢字 🎉 \u202e\u200b';

/** Path segments that are not a valid id, date or name (raw, already percent-encoded where needed). */
export const BAD_SEGMENTS = [
  '0',
  '-1',
  '1.5',
  'abc',
  '99999999999999999999999',
  '2147483648',
  '%00',
  '%ZZ',
  '%',
  '%E2%98%83',
  encodeURIComponent("1' OR '1'='1"),
  'x'.repeat(5000),
  '2025-02-30',
  '..%2F..%2Fetc%2Fpasswd',
];

/** Query values that break a type, a range, an enum or a format. */
export const BAD_QUERY_VALUES = [
  '',
  'abc',
  '-1',
  '0',
  '1.5',
  '1e309',
  '99999999999999999999',
  'true',
  '%00',
  '%ZZ',
  encodeURIComponent(UNICODE),
  encodeURIComponent('{"a":'),
  'x'.repeat(20_000),
];

/** Whole query strings that are odd in themselves. */
export const BAD_QUERY_STRINGS = [
  '%',
  '&&&',
  '=',
  '==x',
  'a[b]=1&a[c]=2',
  'limit=1&limit=2',
  `zz=${'y'.repeat(8000)}`,
];

/** Values that a field of any type may receive instead of what it expects. */
export const WRONG_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 63,
  '',
  '   ',
  'text',
  LONG,
  `nul\u0000inside`,
  UNICODE,
  [],
  ['a', 1],
  {},
  { nested: { deeper: [1, { x: null }] } },
  '<script>alert(1)</script>',
  '2025-02-30T25:61:61Z',
];

/** Bodies that are not what any JSON route expects, with the content type they are sent as. */
export const RAW_BODIES: [string, string | Buffer][] = [
  ['application/json', '{'],
  ['application/json', '{"a":1,}'],
  ['application/json', '[]'],
  ['application/json', 'null'],
  ['application/json', '"text"'],
  ['application/json', '42'],
  ['application/json', ''],
  ['application/json', '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'],
  [
    'application/json',
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  ],
  ['application/json', Buffer.from([0xff, 0xfe, 0x7b, 0x22, 0x00])],
  ['application/json', `{"big":"${'z'.repeat(1_100_000)}"}`],
  ['application/json; charset=latin1', '{}'],
  ['text/plain', 'hello'],
  ['application/x-www-form-urlencoded', 'a=1&b=2'],
  ['application/xml', '<a>1</a>'],
  ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--'],
];
