// Checks what a person typed into a number field: a whole number text in range, or a human error that names the field.

/** Formats a bound for a message: plain digits, no exponent for ordinary magnitudes. */
export function formatBound(x) {
  if (!Number.isFinite(x)) return String(x);
  if (x !== 0 && (Math.abs(x) >= 1e6 || Math.abs(x) < 1e-3)) return x.toExponential().replace('e+', 'e');
  return String(Number(x.toPrecision(6)));
}

/** The unit as people write it: m/s^2 -> m/s², kg/m^3 -> kg/m³; '1' and '' mean none. */
export function prettyUnit(unit) {
  if (!unit || unit === '1') return '';
  return unit.replace(/\^2/g, '²').replace(/\^3/g, '³').replace(/\^-1/g, '⁻¹');
}

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * spec: {label, min, max, unit?, integer?}. text: what was typed. Returns {value} or {error}: an
 * error says what was typed, what the field takes, and that nothing changed.
 */
export function checkNumber(text, spec) {
  const typed = String(text ?? '').trim();
  const unit = prettyUnit(spec.unit);
  const range = `${formatBound(spec.min)} to ${formatBound(spec.max)}${unit ? ` ${unit}` : ''}`;
  const shown = typed.length > 24 ? `${typed.slice(0, 24)}…` : typed;
  if (typed === '') return { error: `${spec.label}: enter a number from ${range}` };
  if (!NUMBER_TEXT.test(typed)) return { error: `${spec.label}: “${shown}” is not a number; enter one from ${range}` };
  const value = Number(typed);
  if (!Number.isFinite(value)) return { error: `${spec.label}: ${shown} is too large; enter a number from ${range}` };
  if (spec.integer && !Number.isInteger(value)) return { error: `${spec.label}: enter a whole number from ${range}` };
  if (value < spec.min || value > spec.max) return { error: `${spec.label}: ${shown} is out of range; enter a number from ${range}` };
  return { value };
}
