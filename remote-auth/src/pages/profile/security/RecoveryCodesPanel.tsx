import { useState } from 'react';
import styled from 'styled-components';
import { Alert, Button, theme } from '@portal/shared';
import { Row } from './styles';

const Codes = styled.ol`
  display: grid;
  grid-template-columns: repeat(2, max-content);
  gap: 6px 24px;
  margin: 12px 0;
  padding: 12px 16px;
  list-style: none;
  border: 1px dashed ${theme.color.border};
  border-radius: 8px;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 1.05rem;
`;

/** The text of the downloaded file: the codes, one a line, after a line that says what they are. */
export function recoveryCodesFile(codes: readonly string[]): string {
  return ['Códigos de recuperación del Portal (cada uno sirve una sola vez)', '', ...codes, ''].join('\n');
}

function download(codes: readonly string[]): void {
  const url = URL.createObjectURL(new Blob([recoveryCodesFile(codes)], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'codigos-recuperacion.txt';
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** The ten recovery codes, shown once: copy them, download them, then 'Ya los guardé' closes them for good. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const [copied, setCopied] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      setCopied({ tone: 'success', text: 'Códigos copiados' });
    } catch {
      setCopied({ tone: 'error', text: 'No se pudieron copiar los códigos: cópialos a mano o descárgalos' });
    }
  };

  return (
    <div>
      <Alert tone="info">
        Guarda estos códigos de recuperación en un lugar seguro. Cada uno sirve una sola vez para entrar si no tienes tu
        aplicación de autenticación. No volverás a verlos.
      </Alert>
      <Codes aria-label="Códigos de recuperación">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Codes>
      {copied && <Alert tone={copied.tone}>{copied.text}</Alert>}
      <Row>
        <Button $variant="secondary" onClick={copy}>
          Copiar códigos
        </Button>
        <Button $variant="secondary" onClick={() => download(codes)}>
          Descargar
        </Button>
        <Button onClick={onDone}>Ya los guardé</Button>
      </Row>
    </div>
  );
}
