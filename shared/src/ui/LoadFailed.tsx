import styled from 'styled-components';
import { TEXT } from '../messages/es';
import { Alert } from './Alert';
import { Button } from './Button';

const Box = styled.div`
  display: flex;
  flex-direction: column;
  align-items: flex-start;
  gap: 12px;
`;

/**
 * A list that could not load (the apps catalogue, the admin's users): its message, announced and focused as every
 * error is, and 'Reintentar', instead of a loading text that never ends.
 */
export function LoadFailed({
  message,
  onRetry,
  className,
}: {
  message: string;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <Box className={className}>
      <Alert>{message}</Alert>
      <Button $variant="secondary" onClick={onRetry}>
        {TEXT.retry}
      </Button>
    </Box>
  );
}
