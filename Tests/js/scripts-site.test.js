// Names in other scripts, on a tiny site built by the real generator (Tests/js/fixtures/scripts),
// searched the way a native speaker types them (FORMAT.md "Normalisation"): a word inside a Thai,
// Lao, Khmer or Burmese name; hiragana for katakana; the Arabic and Persian letters typed one for
// the other; ASCII digits for digits of other scripts; a Greek title in capitals.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from './support/fixture.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const generator = process.env.GENERATE ?? ['debug', 'release'].map((c) => join(REPO, '.build', c, 'generate'))
  .filter((p) => existsSync(p)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
const folder = mkdtempSync(join(tmpdir(), 'scripts-site-'));
process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
const site = join(folder, 'site');
execFileSync(generator, ['--config', join(REPO, 'Tests/js/fixtures/scripts/site.yml'), '--output', site, '--quiet'], { stdio: 'pipe' });
const titles = async (q) => (await open(site).engine.search(q)).docs.map((d) => d.title);

test('a word inside a Thai, Lao, Khmer or Burmese name finds it', async () => {
  assert.deepEqual(await titles('ใหม่'), ['เชียงใหม่']);
  assert.deepEqual(await titles('เทพ'), ['กรุงเทพมหานคร']);
  assert.deepEqual(await titles('มหานคร'), ['กรุงเทพมหานคร']);
  assert.deepEqual(new Set(await titles('ธานี')), new Set(['อุดรธานี', 'สุราษฎร์ธานี']));
  assert.deepEqual(new Set(await titles('ใต้')), new Set(['เกาหลีใต้', 'แอฟริกาใต้']));
  assert.deepEqual(await titles('อเมริกา'), ['สหรัฐอเมริกา']);
  assert.deepEqual(await titles('กุ้ง'), ['ต้มยำกุ้ง']);
  assert.deepEqual(await titles('ວຽງຈັນ'), ['ນະຄອນຫຼວງວຽງຈັນ']);
  assert.deepEqual(await titles('ລາວ'), ['ສາທາລະນະລັດປະຊາທິປະໄຕປະຊາຊົນລາວ']);
  assert.deepEqual(await titles('អាមេរិក'), ['សហរដ្ឋអាមេរិក']);
  assert.deepEqual(await titles('ပြည်ထောင်စု'), ['အမေရိကန်ပြည်ထောင်စု']);
  // The whole name, and its beginning while typing, as before.
  assert.deepEqual(await titles('เชียงใหม่'), ['เชียงใหม่']);
  assert.deepEqual(await titles('ต้มยำ'), ['ต้มยำกุ้ง']);
});

test('a word inside a Thai name is marked where it stands', async () => {
  const [doc] = (await open(site).engine.search('ใหม่')).docs;
  assert.deepEqual(doc.marks, [[5, 9]]);
});

test('hiragana finds katakana and half-width katakana finds full-width', async () => {
  assert.deepEqual(await titles('らーめん'), ['ラーメン']);
  assert.deepEqual(await titles('ﾗｰﾒﾝ'), ['ラーメン']);
  assert.deepEqual(await titles('ウドン'), ['うどん']);
});

test('Arabic and Persian letters typed one for the other find the same name', async () => {
  assert.deepEqual(await titles('القاهره'), ['القاهرة'], 'ta marbuta typed as ha');
  assert.deepEqual(await titles('مكه'), ['مكة المكرمة']);
  assert.deepEqual(await titles('اسبانيا'), ['إسبانيا'], 'alef without hamza');
  assert.deepEqual(await titles('مستشفي'), ['مستشفى الملك فيصل'], 'alef maqsura typed as ya');
  assert.deepEqual(await titles('ايران'), ['ایران'], 'Arabic yeh for Persian yeh');
  assert.deepEqual(await titles('كرمان'), ['کرمان'], 'Arabic kaf for Persian keheh');
});

test('an Arabic name is found without its article', async () => {
  assert.deepEqual(await titles('قاهرة'), ['القاهرة']);
  assert.deepEqual(await titles('ملك'), ['مستشفى الملك فيصل'], 'a word after the first');
});

test('ASCII digits find the digits of other scripts', async () => {
  assert.deepEqual(await titles('26'), ['شارع ٢٦ يوليو']);
  assert.deepEqual(await titles('12'), ['سوره ۱۲']);
  assert.deepEqual(await titles('2011'), ['क्रिकेट विश्व कप २०११']);
  assert.deepEqual(await titles('รัชกาลที่ 9'), ['รัชกาลที่ ๙']);
});

test('Greek in capitals, Turkish dotted and dotless i, Vietnamese đ and Hebrew niqqud', async () => {
  assert.deepEqual(await titles('ΚΥΠΡΟΣ'), ['Κύπρος']);
  assert.deepEqual(await titles('πατησιων'), ['ΟΔΟΣ ΠΑΤΗΣΙΩΝ']);
  assert.deepEqual(await titles('οδος'), ['ΟΔΟΣ ΠΑΤΗΣΙΩΝ']);
  assert.deepEqual(await titles('istanbul'), ['İstanbul']);
  assert.deepEqual(await titles('IĞDIR'), ['Iğdır']);
  assert.deepEqual(await titles('da nang'), ['Đà Nẵng']);
  assert.deepEqual(await titles('בראשית'), ['בְּרֵאשִׁית']);
});

test('a Devanagari vowel sign is part of its word: भारत is not भरत', async () => {
  assert.deepEqual(await titles('भारत'), ['भारत']);
  assert.deepEqual(await titles('भरत'), ['भरत']);
});
