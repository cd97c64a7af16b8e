import { formatSpread, pairedRatios, spread } from "../../../bench/lib/spread";

test("the median of an odd count is the middle sample, of an even count the mean of the two middle ones", () => {
  expect(spread([9, 1, 5])).toEqual({ median: 5, min: 1, max: 9 });
  expect(spread([4, 1, 10, 2])).toEqual({ median: 3, min: 1, max: 10 });
  expect(spread([7])).toEqual({ median: 7, min: 7, max: 7 });
});

test("a spread of no samples is refused rather than reported as NaN", () => {
  expect(() => spread([])).toThrow("at least one sample");
});

test("ratios pair the samples of the same repeat", () => {
  expect(pairedRatios([10, 30, 12], [5, 10, 12])).toEqual([2, 3, 1]);
  expect(() => pairedRatios([1, 2], [1])).toThrow("differ in count: 2 and 1");
});

test("a spread is shown as the median and range, scaled", () => {
  expect(formatSpread({ median: 12_345, min: 11_900, max: 13_080 }, 1, 1000)).toBe("12.3 (11.9-13.1)");
  expect(formatSpread(spread([1.1, 1.04, 1.2]), 2)).toBe("1.10 (1.04-1.20)");
});
