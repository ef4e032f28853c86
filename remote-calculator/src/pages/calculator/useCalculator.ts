import { useState } from 'react';
import {
  convert,
  isOutsideRange,
  isReversedRange,
  MAGNITUDES,
  parseDecimal,
  SIGNAL_TYPES,
  type RangeType,
} from '../../rules/conversion';

export type Side = 'input' | 'output';
export type Bound = 'min' | 'max';

interface RangeState {
  type: RangeType;
  min: string;
  max: string;
}

interface CalculatorState {
  input: RangeState;
  output: RangeState;
  /** The side the user typed a value in last: its text is kept as typed, the other side is computed from it. */
  source: Side;
  sourceText: string;
}

/** What one card shows: the texts of its fields and which of them cannot be read as numbers. */
export interface RangeView {
  type: RangeType;
  types: readonly RangeType[];
  min: string;
  max: string;
  value: string;
  invalid: { min: boolean; max: boolean; value: boolean };
}

/** A range's bounds as typed, with its unit. */
export interface TypedRange {
  side: Side;
  min: string;
  max: string;
  unit: string;
}

/** What a result needs said beside it: a value beyond its range (the result extrapolates), a reversed range. */
export type Note = ({ kind: 'outside'; value: string } | { kind: 'reversed' }) & TypedRange;

/** Why the other side is (or is not) computed; the page words it for the user. */
export type Outcome =
  | { kind: 'idle' }
  | { kind: 'invalid-value' }
  | { kind: 'invalid-range' }
  | { kind: 'empty-range'; side: Side }
  | { kind: 'result'; from: string; fromUnit: string; to: string; toUnit: string; notes: Note[] };

const TYPES: Record<Side, readonly RangeType[]> = { input: SIGNAL_TYPES, output: MAGNITUDES };

function rangeOf(type: RangeType): RangeState {
  return { type, min: String(type.min), max: String(type.max) };
}

const otherSide = (side: Side): Side => (side === 'input' ? 'output' : 'input');

function initialState(): CalculatorState {
  return {
    input: rangeOf(SIGNAL_TYPES[0]),
    output: rangeOf(MAGNITUDES[0]),
    source: 'input',
    sourceText: '',
  };
}

function outcomeOf(state: CalculatorState): Outcome {
  const from = state[state.source];
  const to = state[otherSide(state.source)];
  if (state.sourceText.trim() === '') return { kind: 'idle' };
  const value = parseDecimal(state.sourceText);
  if (Number.isNaN(value)) return { kind: 'invalid-value' };
  const fromMin = parseDecimal(from.min);
  const fromMax = parseDecimal(from.max);
  const toMin = parseDecimal(to.min);
  const toMax = parseDecimal(to.max);
  if ([fromMin, fromMax, toMin, toMax].some(Number.isNaN)) return { kind: 'invalid-range' };
  const result = convert(value, fromMin, fromMax, toMin, toMax);
  if (result === null) return { kind: 'empty-range', side: state.source };
  const typed = (side: Side): TypedRange => {
    const range = state[side];
    return { side, min: range.min.trim(), max: range.max.trim(), unit: range.type.unit };
  };
  const text = state.sourceText.trim();
  const notes: Note[] = [];
  if (isOutsideRange(value, fromMin, fromMax)) notes.push({ kind: 'outside', value: text, ...typed(state.source) });
  for (const side of ['input', 'output'] as const) {
    const range = typed(side);
    if (isReversedRange(parseDecimal(range.min), parseDecimal(range.max))) notes.push({ kind: 'reversed', ...range });
  }
  return { kind: 'result', from: text, fromUnit: from.type.unit, to: result, toUnit: to.type.unit, notes };
}

function viewOf(state: CalculatorState, side: Side, outcome: Outcome): RangeView {
  const range = state[side];
  const isSource = state.source === side;
  const value = isSource ? state.sourceText : outcome.kind === 'result' ? outcome.to : '';
  return {
    type: range.type,
    types: TYPES[side],
    min: range.min,
    max: range.max,
    value,
    invalid: {
      min: Number.isNaN(parseDecimal(range.min)),
      max: Number.isNaN(parseDecimal(range.max)),
      value: isSource && outcome.kind === 'invalid-value',
    },
  };
}

/**
 * The calculator's state. Only the last typed value is stored; the other side is derived on every render, so a
 * changed bound recomputes from the last edited side and a stale result can never show.
 */
export function useCalculator() {
  const [state, setState] = useState(initialState);
  const outcome = outcomeOf(state);

  return {
    input: viewOf(state, 'input', outcome),
    output: viewOf(state, 'output', outcome),
    outcome,
    /** Picking a type fills its bounds and unit and clears both values, whose meaning just changed. */
    selectType(side: Side, typeId: string) {
      const type = TYPES[side].find((candidate) => candidate.id === typeId);
      if (!type) return;
      setState((current) => ({ ...current, [side]: rangeOf(type), sourceText: '' }));
    },
    setBound(side: Side, bound: Bound, text: string) {
      setState((current) => ({ ...current, [side]: { ...current[side], [bound]: text } }));
    },
    setValue(side: Side, text: string) {
      setState((current) => ({ ...current, source: side, sourceText: text }));
    },
  };
}
