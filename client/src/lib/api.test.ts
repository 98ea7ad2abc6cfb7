import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, failureText, login, register } from './api';
import { CATALOGUES, LANGS } from './i18n';

/** fetch answers every request with ``status`` and the JSON ``body``. */
function answer(status: number, body: unknown) {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
}

afterEach(() => vi.unstubAllGlobals());

describe('account refusals said by their code', () => {
  it('keeps the status, code, reason and parameters of a refusal', async () => {
    answer(400, { error: 'name_length', message: 'a name has 3 to 20 characters, not 2', params: { min: 3, max: 20, length: 2 } });
    const refused = await register('ab', 'long enough').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    const e = refused as ApiError;
    expect([e.status, e.code, e.reason, e.params]).toEqual([400, 'name_length', 'a name has 3 to 20 characters, not 2', { min: 3, max: 20, length: 2 }]);
    expect(e.message).toBe('400: a name has 3 to 20 characters, not 2');
    expect(LANGS.map((lang) => failureText(lang, e))).toEqual([
      'A name has 3 to 20 characters, not 2.',
      'Ein Name hat 3 bis 20 Zeichen, nicht 2.',
      '이름은 3~20자여야 합니다 (지금 2자).',
      '名前は3～20文字です（今は2文字）。',
    ]);
  });

  it('says a failed login the same way whatever failed', async () => {
    answer(401, { error: 'bad_login', message: 'the name and password do not match an account' });
    const e = await login('ada', 'wrong password').catch((x: unknown) => x);
    expect(LANGS.map((lang) => failureText(lang, e))).toEqual([
      'The name and password do not match an account.',
      'Name und Passwort passen zu keinem Konto.',
      '이름과 비밀번호가 맞는 계정이 없습니다.',
      '名前とパスワードが一致するアカウントはありません。',
    ]);
  });

  it('says how long to wait after too many attempts, counted in each language', async () => {
    const wait = async (seconds: number) => {
      answer(429, { error: 'too_many_attempts', message: `too many login attempts; try again in ${seconds} seconds`, params: { retry_after: seconds } });
      return login('ada', 'guess 1xx').catch((x: unknown) => x);
    };
    const one = await wait(1);
    const many = await wait(1000);
    expect([failureText('en', one), failureText('en', many)]).toEqual([
      'Too many attempts: try again in 1 second.',
      'Too many attempts: try again in 1000 seconds.',
    ]);
    expect([failureText('de', one), failureText('de', many)]).toEqual([
      'Zu viele Versuche: versuche es in 1 Sekunde wieder.',
      'Zu viele Versuche: versuche es in 1000 Sekunden wieder.',
    ]);
    expect(failureText('ko', many)).toBe('시도가 너무 많습니다: 1000초 후에 다시 시도하세요.');
    expect(failureText('ja', many)).toBe('試行が多すぎます：1000秒後にもう一度お試しください。');
  });

  it('names the taken or refused name and character in every language', async () => {
    answer(409, { error: 'name_taken', message: "the name 'Ada' is taken", params: { name: 'Ada' } });
    const taken = await register('ada', 'long enough').catch((x: unknown) => x);
    expect(LANGS.map((lang) => failureText(lang, taken))).toEqual([
      'The name Ada is taken.',
      'Der Name Ada ist schon vergeben.',
      'Ada은(는) 이미 쓰이는 이름입니다.',
      'Ada はすでに使われています。',
    ]);
    answer(400, { error: 'name_chars', message: "a name is letters, digits, _ and -; ';' is none of these", params: { char: ';' } });
    const chars = await register('semi;colon', 'long enough').catch((x: unknown) => x);
    expect(failureText('ja', chars)).toBe('名前に使えるのは文字、数字、_ と - です：「;」は使えません。');
  });

  it('gives a code it does not know by the server’s reason, and no answer as the network failing', async () => {
    answer(400, { error: 'bad_json', message: 'the body is not JSON' });
    const known = await login('a', 'b').catch((x: unknown) => x);
    expect(failureText('en', known)).toBe('The server could not read that request; reload the page.');
    // a code from a newer server than this client
    answer(400, { error: 'new_code', message: 'the body is not JSON' });
    const unknown = await login('a', 'b').catch((x: unknown) => x);
    expect(failureText('en', unknown)).toBe('Refused: the body is not JSON');
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const offline = await login('a', 'b').catch((x: unknown) => x);
    expect(LANGS.map((lang) => failureText(lang, offline))).toEqual(LANGS.map((lang) => CATALOGUES[lang]['error.network']));
  });

  it('translates every account error: no language shows the English text', () => {
    const keys = Object.keys(CATALOGUES.en).filter((k) => /^error\.(name|password|bad_login|already_registered|logged|wrong|login|too_many_attempts)/.test(k));
    expect(keys.length).toBe(16);
    for (const lang of ['de', 'ko', 'ja'] as const) {
      for (const k of keys) expect(CATALOGUES[lang][k as keyof typeof CATALOGUES.en], `${lang} ${k}`).not.toBe(CATALOGUES.en[k as keyof typeof CATALOGUES.en]);
    }
  });
});
