import { describe, expect, it } from 'vitest';
import { junitSpecOf, junitTitlePath } from './junit-names.js';
import { locationInText, moduleFileOf, rootOf, specPathOf } from './spec-paths.js';

describe('specPathOf', () => {
  const root = rootOf('/home/runner/work/shop/shop/');

  it.each([
    ['/home/runner/work/shop/shop/test/api.spec.js', root, 'test/api.spec.js'],
    ['/home/runner/work/shop/shop/test/api.spec.js', undefined, 'shop/test/api.spec.js'],
    ['/builds/other/checkout/test/api.spec.js', root, 'checkout/test/api.spec.js'],
    // A folder whose name only starts like the root is outside it.
    ['/home/runner/work/shop/shop-e2e/a.spec.js', root, 'shop/shop-e2e/a.spec.js'],
    ['./test/api.spec.js', root, 'test/api.spec.js'],
    ['test\\windows\\api.spec.js', undefined, 'test/windows/api.spec.js'],
    ['C:\\Work\\Shop\\test\\api.spec.js', rootOf('c:\\work\\shop'), 'test/api.spec.js'],
    ['checkout', root, 'checkout'],
  ])('%s with root %s → %s', (file, base, expected) => {
    expect(specPathOf(file, base)).toBe(expected);
  });

  it('ignores a root that is not an absolute path', () => {
    expect(rootOf('.')).toBeUndefined();
    expect(rootOf('/')).toBeUndefined();
    expect(rootOf(undefined)).toBeUndefined();
  });
});

describe('moduleFileOf', () => {
  it.each([
    ['tests.test_orders.TestCheckout', true, 'tests/test_orders.py'],
    ['tests.test_orders', true, 'tests/test_orders.py'],
    ['tests.api.test_users.TestUsers.TestNested', true, 'tests/api/test_users.py'],
    ['test_checkout', true, 'test_checkout.py'],
    ['pkg.orders_test', false, 'pkg/orders_test.py'],
    ['com.shop.CheckoutTest', false, undefined],
    ['checkout adds an item', true, undefined],
  ])('%s (pytest: %s) → %s', (classname, pytest, expected) => {
    expect(moduleFileOf(classname, pytest)).toBe(expected);
  });
});

describe('JUnit spec names', () => {
  const none = { lastFile: undefined, pytest: false };

  it('prefers the file, then the class module, then the suite (never the runner), then the class', () => {
    const suite = { name: 'pytest', file: undefined };
    expect(
      junitSpecOf({ name: 't', classname: 'tests.test_x.TestA', file: undefined }, suite, {
        lastFile: undefined,
        pytest: true,
      }),
    ).toBe('tests/test_x.py');
    expect(junitSpecOf({ name: 't', classname: 'x', file: 'a/b.spec.ts' }, suite, none)).toBe('a/b.spec.ts');
    expect(
      junitSpecOf(
        { name: 't', classname: 'cart.test.js', file: undefined },
        { name: 'Mocha Tests', file: undefined },
        none,
      ),
    ).toBe('cart.test.js');
    expect(
      junitSpecOf(
        { name: 't', classname: 'checkout t', file: undefined },
        { name: 'checkout', file: undefined },
        none,
      ),
    ).toBe('checkout');
    expect(
      junitSpecOf(
        { name: 't', classname: 'com.shop.CheckoutTest', file: undefined },
        { name: 'jest tests', file: undefined },
        none,
      ),
    ).toBe('com.shop.CheckoutTest');
    // pytest names a module that failed to import by the case, with an empty class name.
    expect(
      junitSpecOf({ name: 'tests.test_broken', classname: undefined, file: undefined }, suite, {
        lastFile: undefined,
        pytest: true,
      }),
    ).toBe('tests/test_broken.py');
  });

  it('splits titles the way each reporter joined them', () => {
    const suite = (name: string) => ({ name, file: undefined });
    expect(
      junitTitlePath(
        { name: 'orders › refunds › refunds an order', classname: 'orders.spec.js', file: undefined },
        suite('orders.spec.js'),
        false,
      ),
    ).toEqual(['orders', 'refunds', 'refunds an order']);
    expect(
      junitTitlePath(
        { name: 'cart > coupons > lists', classname: 'cart.test.js', file: undefined },
        suite('cart.test.js'),
        false,
      ),
    ).toEqual(['cart', 'coupons', 'lists']);
    expect(
      junitTitlePath(
        { name: 'test_pays', classname: 'tests.test_x.TestCheckout', file: undefined },
        suite('pytest'),
        true,
      ),
    ).toEqual(['TestCheckout', 'test_pays']);
    expect(
      junitTitlePath(
        { name: 'test_unique', classname: 'tests.test_x', file: undefined },
        suite('pytest'),
        true,
      ),
    ).toEqual(['test_unique']);
    expect(
      junitTitlePath(
        { name: 'cart coupons lists the codes', classname: 'lists the codes', file: undefined },
        suite('coupons'),
        false,
      ),
    ).toEqual(['cart', 'coupons', 'lists the codes']);
    expect(
      junitTitlePath(
        { name: 'checkout adds an item', classname: 'checkout adds an item', file: undefined },
        suite('checkout'),
        false,
      ),
    ).toEqual(['checkout', 'adds an item']);
  });
});

describe('locationInText', () => {
  it('finds the first line of the spec a stack or a pytest trace names', () => {
    expect(
      locationInText('Error\n    at Context.<anonymous> (test/cart.spec.js:6:26)', 'test/cart.spec.js'),
    ).toBe('test/cart.spec.js:6');
    expect(
      locationInText(
        'E   assert 9.0 == 8.0\n\ntests/test_orders.py:16: AssertionError',
        'tests/test_orders.py',
      ),
    ).toBe('tests/test_orders.py:16');
    expect(locationInText('at x (/abs/other.spec.js:1:1)', 'test/cart.spec.js')).toBeUndefined();
    expect(locationInText(undefined, 'a.js')).toBeUndefined();
  });
});
