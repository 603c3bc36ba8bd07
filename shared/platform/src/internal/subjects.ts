/** NATS subject matching: `*` matches one token, a final `>` matches one or more tokens. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const wanted = pattern.split('.');
  const tokens = subject.split('.');
  for (let i = 0; i < wanted.length; i++) {
    const token = wanted[i];
    if (token === '>') return i === wanted.length - 1 && tokens.length > i;
    if (i >= tokens.length) return false;
    if (token !== '*' && token !== tokens[i]) return false;
  }
  return tokens.length === wanted.length;
}

export function anySubjectMatches(patterns: string[], subject: string): boolean {
  return patterns.some((pattern) => subjectMatches(pattern, subject));
}
