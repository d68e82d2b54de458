import { describe, expect, it } from 'vitest';
import { parseAmount, parseAmountPaise } from './amount';

describe('parseAmount', () => {
  it.each([
    ['10.5', 10.5, 1050],
    ['10.10', 10.1, 1010],
    ['0.29', 0.29, 29],
    ['0.01', 0.01, 1],
    ['100000000', 100000000, 10000000000],
    ['007', 7, 700],
    [' 5 ', 5, 500],
    ['1.1', 1.1, 110],
  ])('reads %j as %s rupees, %s paise', (text, rupees, paise) => {
    expect(parseAmount(text)).toBe(rupees);
    expect(parseAmountPaise(text)).toBe(paise);
  });

  // The wire number must come back to exactly the typed paise on the server (Math.round(x * 100)).
  it('gives every amount from 0.01 to 20.00 back as its own paise', () => {
    for (let paise = 1; paise <= 2000; paise++) {
      const text = `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
      const rupees = parseAmount(text)!;
      expect(Math.round(rupees * 100)).toBe(paise);
      expect(rupees).toBe(Number(text));
    }
  });

  it.each([
    '', ' ', '-5', '0', '0.00', '0.001', '10.999', '1e5', '1E5', 'abc', '+5', '1,000', '10,50', '.5', '5.', '1 000',
    '0x10', 'Infinity', 'NaN', '५', '١٠', '10.5.1', '9007199254740993',
  ])('refuses %j', (text) => {
    expect(parseAmount(text)).toBeNull();
    expect(parseAmountPaise(text)).toBeNull();
  });
});
