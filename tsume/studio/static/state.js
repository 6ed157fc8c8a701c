// The problem the studio works on, shared by its tabs: the editor writes
// it, the other tabs read it (and a collection or the composer opens one).

const listeners = [];

export const current = {
  problem: {variant: 'ito', position: 'k29K b - 1', defender: null, length: null, solution: null,
            id: null, title: null, author: null, tags: [], notes: null},
  // Where it came from ("collection name" and id), for the summary line.
  source: null,
};

// A problem as the API's problem object (no empty fields).
export function problemBody(p = current.problem) {
  const out = {position: p.position, variant: p.variant};
  for (const key of ['defender', 'length', 'solution', 'id', 'title', 'author', 'notes']) {
    if (p[key] !== null && p[key] !== undefined && p[key] !== '' &&
        !(Array.isArray(p[key]) && p[key].length === 0)) out[key] = p[key];
  }
  if (p.tags && p.tags.length) out.tags = p.tags;
  return out;
}

export function setProblem(problem, origin) {
  current.problem = {...current.problem, ...problem};
  if (origin !== undefined) current.source = origin;
  for (const f of listeners) f(current.problem, origin);
}

export function onProblem(f) {
  listeners.push(f);
}

// The fields a search reads: the problem it answers.  (A verification also
// reads the stated length and solution.)
export const SEARCHED = ['position', 'variant', 'defender'];

const RULES = {rest: 'the rest of the set', none: 'nothing'};

// When the problem is no longer ``made`` in ``fields`` (the problem a result
// was made for), a sentence saying what the result is for; '' while it is.
export function staleNote(made, fields, again) {
  const before = problemBody(made);
  const now = problemBody();
  const changed = fields.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k]));
  if (!changed.length) return '';
  let what;
  if (changed.some((k) => SEARCHED.includes(k))) {
    what = `the previous position, ${made.position}`;
    if (changed.includes('variant')) what += ` (${made.variant})`;
    if (changed.includes('defender')) what += `, the defender holding ${RULES[made.defender] || made.defender || 'the pieces named'}`;
  } else {
    const names = {length: 'stated length', solution: 'solution'};
    const value = (k) => (before[k] === undefined ? 'none' : [].concat(before[k]).join(' '));
    what = `the previous ${changed.map((k) => names[k] || k).join(' and ')} (${changed.map(value).join('; ')})`;
  }
  return `For ${what}, not for the problem as it stands now: ${again}.`;
}
