import { useCallback, useEffect, useRef, useState } from 'react';
import styled, { css, keyframes } from 'styled-components';
import { Alert, AppIcon, Button, Modal, theme, type App } from '@portal/shared';
import { tileGrid, WrapList } from '../../../components/lists';
import { COMING_SOON } from '../../../components/Offers';
import {
  FINISH_LABEL,
  FREE_ACCOUNT,
  HIGHLIGHT_MS,
  PILLS,
  PRO_ACCOUNT,
  SLIDE_MS,
  STEP_COUNT,
  STEP_TITLES,
} from './steps';

const slideOut = keyframes`to { opacity: 0; transform: translateX(-24px); }`;
const slideBack = keyframes`to { opacity: 0; transform: translateX(24px); }`;
const slideIn = keyframes`from { opacity: 0; transform: translateX(24px); }`;

// Never shorter than its content: where a step is taller than the dialog, the dialog scrolls instead of the step
// running under the buttons.
const Stage = styled.div<{ $leaving: 'next' | 'previous' | null }>`
  flex-shrink: 0;
  min-height: 260px;
  animation: ${(p) =>
    p.$leaving === 'next'
      ? css`${slideOut} ${SLIDE_MS}ms ease-in forwards`
      : p.$leaving === 'previous'
        ? css`${slideBack} ${SLIDE_MS}ms ease-in forwards`
        : css`${slideIn} ${SLIDE_MS}ms ease-out`};
  @media (prefers-reduced-motion: reduce) { animation: none; }
`;

const Counter = styled.p`
  margin: -8px 0 16px;
  color: ${theme.color.muted};
  font-size: 0.875rem;
`;

const float = keyframes`50% { transform: translateY(-8px); }`;

/** The welcome "video": a looping animated scene drawn in CSS, so nothing is downloaded. */
const Video = styled.div`
  display: flex;
  align-items: center;
  justify-content: center;
  gap: 18px;
  height: 160px;
  border-radius: ${theme.radius};
  background: linear-gradient(120deg, #1e3a8a, #1d4ed8 45%, #0f766e);
  > span { animation: ${float} 3s ease-in-out infinite; }
  > span:nth-child(2) { animation-delay: 0.5s; }
  > span:nth-child(3) { animation-delay: 1s; }
  @media (prefers-reduced-motion: reduce) { > span { animation: none; } }
  /* Lower on a phone, so the step and its buttons fit the dialog without scrolling. */
  @media (max-width: ${theme.breakpoint.mobile}) { height: 120px; }
`;

const Tagline = styled.p`
  font-size: 1.125rem;
  margin: 16px 0 12px;
`;

const Pills = styled(WrapList)`
  li {
    padding: 6px 14px;
    border-radius: 999px;
    background: ${theme.color.infoBg};
    color: ${theme.color.info};
    font-weight: 600;
  }
`;

const AppsGrid = styled.ul`
  ${tileGrid('140px')}
`;

const AppTile = styled.li<{ $active: boolean }>`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 8px;
  padding: 14px 8px;
  border-radius: ${theme.radius};
  border: 2px solid ${(p) => (p.$active ? theme.color.primary : theme.color.border)};
  background: ${(p) => (p.$active ? theme.color.infoBg : theme.color.surface)};
  text-align: center;
  transition: transform 200ms, background 200ms;
  transform: ${(p) => (p.$active ? 'scale(1.04)' : 'none')};
  @media (prefers-reduced-motion: reduce) { transition: none; transform: none; }
`;

const Plans = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(220px, 1fr));
  gap: 12px;
`;

const PlanBox = styled.section<{ $pro?: boolean }>`
  padding: 16px;
  border-radius: ${theme.radius};
  border: 2px solid ${(p) => (p.$pro ? theme.color.info : theme.color.success)};
  h3 { margin: 0 0 8px; }
  header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 4px 12px; }
  header h3 { margin: 0; }
  header + ul { margin-top: 8px; }
  ul { margin: 0; padding-left: 20px; }
  li { margin: 4px 0; }
`;

const Soon = styled.span`
  display: inline-block;
  padding: 2px 10px;
  border-radius: 999px;
  background: ${theme.color.background};
  color: ${theme.color.muted};
  font-weight: 600;
  font-size: 0.875rem;
`;

// With the dialog's one height, the buttons sit at its bottom on every step: 'Continuar' stays under the thumb, at the
// right also on step 1, where 'Anterior' is not shown.
const Footer = styled.div`
  display: flex;
  justify-content: flex-end;
  gap: 12px;
  margin-top: auto;
  padding-top: 20px;
  > :first-child:not(:last-child) { margin-right: auto; }
`;

/** One height for the three steps (the longest one's), within the screen on a phone. */
const DIALOG_HEIGHT = '600px';

/**
 * Spec §2 and §4: the three-step presentation over the apps page. 'Anterior' goes back one step and is not shown on
 * step 1, where there is no step to go back to (docs/decisions/0130-presentation-for-a-signed-in-person.md); Escape
 * or a click outside dismiss it (`onDismiss`, which records it as seen); finishing calls `onFinish` (which records it
 * as seen) and closes it once that worked.
 */
export function PresentationModal({
  apps,
  onDismiss,
  onFinish,
}: {
  /** The web-enabled apps, shown on step 2. */
  apps: readonly App[];
  onDismiss: () => void;
  onFinish: () => Promise<void>;
}) {
  const [step, setStep] = useState(1);
  const [leaving, setLeaving] = useState<'next' | 'previous' | null>(null);
  const [highlight, setHighlight] = useState(0);
  const [finishing, setFinishing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const slideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(slideTimer.current), []);

  useEffect(() => {
    if (step !== 2 || apps.length < 2) return;
    setHighlight(0);
    const timer = setInterval(() => setHighlight((index) => (index + 1) % apps.length), HIGHLIGHT_MS);
    return () => clearInterval(timer);
  }, [step, apps.length]);

  const slide = useCallback((direction: 'next' | 'previous') => {
    if (slideTimer.current !== undefined) return;
    setLeaving(direction);
    slideTimer.current = setTimeout(() => {
      slideTimer.current = undefined;
      setLeaving(null);
      setStep((current) => current + (direction === 'next' ? 1 : -1));
    }, SLIDE_MS);
  }, []);

  const finish = async () => {
    setFinishing(true);
    setError(null);
    try {
      await onFinish();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      setFinishing(false);
    }
  };

  return (
    <Modal title={STEP_TITLES[step] ?? ''} onClose={onDismiss} height={DIALOG_HEIGHT}>
      <Counter>
        {step} de {STEP_COUNT}
      </Counter>
      <Stage key={step} $leaving={leaving} data-testid="presentation-step" data-step={step}>
        {step === 1 && (
          <>
            <Video role="img" aria-label="Video de bienvenida">
              {[1, 2, 3].map((id) => (
                <span key={id}>
                  <AppIcon app={{ id, iconUrl: null }} size={56} />
                </span>
              ))}
            </Video>
            <Tagline>Todas tus herramientas industriales en un solo lugar, con una sola cuenta.</Tagline>
            <Pills>
              {PILLS.map((pill) => (
                <li key={pill}>{pill}</li>
              ))}
            </Pills>
          </>
        )}
        {step === 2 && (
          <AppsGrid>
            {apps.map((app, index) => (
              <AppTile
                key={app.id}
                $active={index === highlight}
                aria-current={index === highlight ? 'true' : undefined}
              >
                <AppIcon app={app} size={48} />
                <span>{app.nombre}</span>
              </AppTile>
            ))}
          </AppsGrid>
        )}
        {step === 3 && (
          <Plans>
            <PlanBox>
              <h3>{FREE_ACCOUNT.title}</h3>
              <ul>
                {FREE_ACCOUNT.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </PlanBox>
            <PlanBox $pro>
              <header>
                <h3>{PRO_ACCOUNT.title}</h3>
                <Soon>{COMING_SOON}</Soon>
              </header>
              <ul>
                {PRO_ACCOUNT.features.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </PlanBox>
          </Plans>
        )}
      </Stage>
      {error && <Alert>{error}</Alert>}
      <Footer>
        {step > 1 && (
          <Button $variant="secondary" onClick={() => slide('previous')} disabled={finishing}>
            Anterior
          </Button>
        )}
        {step < STEP_COUNT ? (
          <Button onClick={() => slide('next')}>Continuar</Button>
        ) : (
          <Button onClick={finish} disabled={finishing}>
            {FINISH_LABEL}
          </Button>
        )}
      </Footer>
    </Modal>
  );
}
