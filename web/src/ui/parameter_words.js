// Puts the panel's labels in place of parameter names in the server's texts (the blow-up's message and cause), so that people read "Time step", not time_step.
import { humanName } from './panel_model.js';
import { prettyUnit } from './field_check.js';

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A function text -> text that writes every parameter name of the table (welcome.parameters) that
 * stands as a word in text as its label ("time_step 0.02 s" -> "Time step 0.02 s"). Longer names
 * first, so that a name inside another (a future `time_step_max`) is never half replaced.
 */
export function labelWords(parameters) {
  const labels = new Map((Array.isArray(parameters) ? parameters : []).map((p) => [p.name, humanName(p)]));
  if (labels.size === 0) return (text) => String(text ?? '');
  const names = [...labels.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const word = new RegExp(`(?<![A-Za-z0-9_])(${names.join('|')})(?![A-Za-z0-9_])`, 'g');
  return (text) => String(text ?? '').replace(word, (name) => labels.get(name));
}

/** One suggested value as people read it: "Time step 0.0004 s", "Adaptive time step on". */
export function describeValue(parameter, name, value) {
  const label = parameter ? humanName(parameter) : name;
  if (typeof value === 'boolean') return `${label} ${value ? 'on' : 'off'}`;
  const unit = parameter ? prettyUnit(parameter.unit) : '';
  return `${label} ${value}${typeof value === 'number' && unit ? ` ${unit}` : ''}`;
}
