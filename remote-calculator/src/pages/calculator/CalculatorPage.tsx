import styled from 'styled-components';
import { PageContainer, theme } from '@portal/shared';
import { RangeCard } from './RangeCard';
import { type Note, type Outcome, type Side, useCalculator } from './useCalculator';

// The page sets its own font, colour and box model: it renders inside the host and standalone alike.
const Page = styled(PageContainer)`
  font-family: ${theme.font};
  color: ${theme.color.text};
  line-height: 1.5;
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
`;

const Heading = styled.h1`
  margin: 0;
  font-size: 1.75rem;
  line-height: 1.25;
`;

const Subtitle = styled.p`
  margin: 4px 0 24px;
  color: ${theme.color.muted};
`;

const Ranges = styled.div`
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 24px;
  align-items: start;
  @media (max-width: ${theme.breakpoint.mobile}) {
    grid-template-columns: 1fr;
    gap: 16px;
  }
`;

const tones = {
  idle: { fg: theme.color.muted, bg: 'transparent', border: theme.color.border },
  result: { fg: theme.color.info, bg: theme.color.infoBg, border: theme.color.info },
  problem: { fg: theme.color.danger, bg: theme.color.dangerBg, border: theme.color.danger },
};

const Status = styled.div`
  margin: 24px 0 0;
  display: flex;
  flex-direction: column;
  gap: 12px;
`;

const Line = styled.p<{ $tone: keyof typeof tones }>`
  margin: 0;
  padding: 12px 14px;
  border: 1px solid ${(p) => tones[p.$tone].border};
  border-radius: ${theme.radius};
  color: ${(p) => tones[p.$tone].fg};
  background: ${(p) => tones[p.$tone].bg};
  font-weight: ${(p) => (p.$tone === 'result' ? 700 : 400)};
`;

// A warning, not an error: the result stands, and these say what it rests on.
const Notes = styled.ul`
  margin: 0;
  padding: 12px 14px 12px 32px;
  border: 1px solid #b45309;
  border-radius: ${theme.radius};
  color: #92400e;
  background: #fffbeb;
  li + li { margin-top: 6px; }
`;

const RANGE_NAME: Record<Side, string> = { input: 'entrada', output: 'salida' };

function describe(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'idle':
      return 'Escribe un valor en la entrada o en la salida para ver su equivalente en el otro rango.';
    case 'invalid-value':
      return 'El valor debe ser un número, por ejemplo 12,5.';
    case 'invalid-range':
      return 'Completa el mínimo y el máximo de ambos rangos con números.';
    case 'empty-range':
      return `El mínimo y el máximo del rango de ${outcome.side === 'input' ? 'entrada' : 'salida'} deben ser distintos.`;
    case 'result':
      return `Resultado: ${outcome.from} ${outcome.fromUnit} = ${outcome.to} ${outcome.toUnit}`;
  }
}

function describeNote(note: Note): string {
  const range = RANGE_NAME[note.side];
  if (note.kind === 'outside') {
    const other = RANGE_NAME[note.side === 'input' ? 'output' : 'input'];
    return `Fuera de rango: ${note.value} ${note.unit} no está entre ${note.min} y ${note.max} ${note.unit} (rango de ${range}), así que el resultado se extrapola fuera del rango de ${other}.`;
  }
  return `Rango de ${range} invertido: el mínimo (${note.min} ${note.unit}) es mayor que el máximo (${note.max} ${note.unit}), como en un transmisor de acción inversa.`;
}

/** The analog signal calculator (/calculadora-txi): converts a transmitter signal to its magnitude and back. */
const RANGES = [
  { side: 'input', title: 'Rango de entrada', typeLabel: 'Tipo de señal' },
  { side: 'output', title: 'Rango de salida', typeLabel: 'Tipo de magnitud' },
] as const;

export default function CalculatorPage() {
  const calculator = useCalculator();
  const { outcome } = calculator;
  const tone = outcome.kind === 'idle' ? 'idle' : outcome.kind === 'result' ? 'result' : 'problem';
  return (
    <Page>
      <Heading>Calculadora TXI</Heading>
      <Subtitle>Convierte la señal analógica de un transmisor en la magnitud que mide, o al revés.</Subtitle>
      <Ranges>
        {RANGES.map(({ side, title, typeLabel }) => (
          <RangeCard
            key={side}
            title={title}
            typeLabel={typeLabel}
            range={calculator[side]}
            onSelectType={(typeId) => calculator.selectType(side, typeId)}
            onBoundChange={(bound, text) => calculator.setBound(side, bound, text)}
            onValueChange={(text) => calculator.setValue(side, text)}
          />
        ))}
      </Ranges>
      {/* A live region: screen readers announce each result (or why there is none) as the user types. */}
      <Status role="status" aria-live="polite">
        <Line $tone={tone}>{describe(outcome)}</Line>
        {outcome.kind === 'result' && outcome.notes.length > 0 && (
          <Notes aria-label="Avisos del cálculo">
            {outcome.notes.map((note) => (
              <li key={`${note.kind}-${note.side}`}>{describeNote(note)}</li>
            ))}
          </Notes>
        )}
      </Status>
    </Page>
  );
}
