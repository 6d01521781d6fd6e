import { describe, expect, it } from 'vitest';
import { makeQuiz, phraseWords } from './phrase';
import { WORDS } from '../test/harness';

describe('phraseWords', () => {
  it('reads words trimmed, lower case, split at any spaces and line breaks', () => {
    expect(phraseWords('  Abandon\tABILITY \n able  ')).toEqual(['abandon', 'ability', 'able']);
    expect(phraseWords('')).toEqual([]);
    expect(phraseWords('   \n ')).toEqual([]);
  });
});

describe('makeQuiz', () => {
  it('asks for three different positions in order, each with the right word and three others of the phrase', () => {
    for (let run = 0; run < 50; run++) {
      const quiz = makeQuiz(WORDS);
      expect(quiz).toHaveLength(3);
      const positions = quiz.map((q) => q.position);
      expect(new Set(positions).size).toBe(3);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      for (const q of quiz) {
        expect(q.position).toBeGreaterThanOrEqual(0);
        expect(q.position).toBeLessThan(12);
        expect(q.choices).toHaveLength(4);
        expect(new Set(q.choices).size).toBe(4);
        expect(q.choices).toContain(WORDS[q.position]);
        for (const c of q.choices) expect(WORDS).toContain(c);
      }
    }
  });

  it('offers a repeated word once, and never as a wrong choice for itself', () => {
    const words = ['zoo', 'zoo', ...WORDS.slice(2)];
    for (let run = 0; run < 50; run++) {
      for (const q of makeQuiz(words)) {
        expect(new Set(q.choices).size).toBe(q.choices.length);
        expect(q.choices.filter((c) => c === words[q.position])).toHaveLength(1);
      }
    }
  });
});
