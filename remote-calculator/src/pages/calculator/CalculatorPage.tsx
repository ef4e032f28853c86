import styled from 'styled-components';
import { PageContainer, theme } from '@portal/shared';
import { RangeCard } from './RangeCard';
import { useCalculator, type Outcome } from './useCalculator';

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

const Status = styled.p<{ $tone: keyof typeof tones }>`
  margin: 24px 0 0;
  padding: 12px 14px;
  border: 1px solid ${(p) => tones[p.$tone].border};
  border-radius: ${theme.radius};
  color: ${(p) => tones[p.$tone].fg};
  background: ${(p) => tones[p.$tone].bg};
  font-weight: ${(p) => (p.$tone === 'result' ? 700 : 400)};
`;

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
      <Status $tone={tone} role="status" aria-live="polite">
        {describe(outcome)}
      </Status>
    </Page>
  );
}
