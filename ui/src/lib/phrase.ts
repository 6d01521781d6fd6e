// The recovery phrase's rules on the page: how typed words are read, and the
// check that the person wrote them down. Nothing here keeps or logs a word.

export const PHRASE_WORDS = 12;

/** The words of a typed phrase: trimmed, lower case, split at any run of spaces
 * or line breaks. */
export function phraseWords(text: string): string[] {
  return text.trim().toLowerCase().split(/\s+/).filter(Boolean);
}

/** A number in [0, n), from the browser's random source. */
function randomBelow(n: number): number {
  const [value] = crypto.getRandomValues(new Uint32Array(1));
  return value % n;
}

function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export interface Question {
  /** 0-based position of the word asked for. */
  position: number;
  /** The right word and others from the phrase, in random order. */
  choices: string[];
}

/** `questions` random positions of `words`, in order; for each, the right word and
 * `options - 1` other words of the phrase (each shown once). */
export function makeQuiz(words: readonly string[], questions = 3, options = 4): Question[] {
  const positions = shuffled(words.map((_, i) => i))
    .slice(0, questions)
    .sort((a, b) => a - b);
  return positions.map((position) => {
    const right = words[position];
    const others = shuffled([...new Set(words)].filter((w) => w !== right)).slice(0, options - 1);
    return { position, choices: shuffled([right, ...others]) };
  });
}
