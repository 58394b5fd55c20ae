// Damerau–Levenshtein (optimal string alignment), cut off past `max`: an unknown word is
// compared with every term of its shard, so most comparisons must stop within a row or two.
export function distance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let older, prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] !== b[j - 1]));
      if (j > 1 && i > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], older[j - 2] + 1);
    }
    if (Math.min(...row) > max) return max + 1;
    [older, prev] = [prev, row];
  }
  return prev[b.length];
}

export const budget = (word) => {
  const n = [...word].length;
  return n < 4 ? 0 : n < 8 ? 1 : 2;
};
