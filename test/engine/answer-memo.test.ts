import { describe, expect, it } from 'vitest';
import { AnswerMemo } from '../../src/engine/answer-memo.js';

describe('AnswerMemo', () => {
  it('prepares each request identity once', () => {
    const memo = new AnswerMemo<string, number>();
    let prepared = 0;
    const prepare = () => ({ key: 'k', read: `read ${++prepared}` });
    const a = memo.entry('request A', prepare);
    expect(memo.entry('request A', prepare)).toBe(a);
    expect(prepared).toBe(1);
    expect(memo.entry('request B', prepare).read).toBe('read 2');
  });

  it('decides once per cache text and again when the entry changed', () => {
    const memo = new AnswerMemo<undefined, string>();
    const entry = memo.entry('r', () => ({ key: 'k', read: undefined }));
    const decided: unknown[] = [];
    const decide = (parsed: unknown) => {
      decided.push(parsed);
      return `answer ${JSON.stringify(parsed)}`;
    };
    expect(memo.answer(entry, '{"v":1}', decide)).toBe('answer {"v":1}');
    expect(memo.answer(entry, '{"v":1}', decide)).toBe('answer {"v":1}');
    expect(decided).toEqual([{ v: 1 }]);
    // A refreshed entry (a debug call, another instance) is never answered from the old decision.
    expect(memo.answer(entry, '{"v":2}', decide)).toBe('answer {"v":2}');
    expect(decided).toEqual([{ v: 1 }, { v: 2 }]);
  });

  it('treats text that is not JSON as no answer and keeps what it had', () => {
    const memo = new AnswerMemo<undefined, string>();
    const entry = memo.entry('r', () => ({ key: 'k', read: undefined }));
    expect(memo.answer(entry, '[1]', () => 'one')).toBe('one');
    expect(memo.answer(entry, '{"cut off', () => 'never')).toBeUndefined();
    expect(memo.answer(entry, '[1]', () => 'again')).toBe('one');
  });

  it('holds a bounded number of requests', () => {
    const memo = new AnswerMemo<number, string>(2);
    let prepared = 0;
    const prepare = () => ({ key: 'k', read: ++prepared });
    memo.entry('a', prepare);
    memo.entry('b', prepare);
    memo.entry('c', prepare);
    memo.entry('a', prepare);
    expect(prepared).toBe(4);
  });
});
