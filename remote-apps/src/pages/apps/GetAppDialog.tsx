import styled from 'styled-components';
import { Button, Modal, theme, VisuallyHidden, type App } from '@portal/shared';
import { QrCode } from '../../components/QrCode';
import type { StoreLink } from './launch';

const Lead = styled.p`
  margin: 0 0 16px;
`;

const Stores = styled.ul`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 24px;
  margin: 0 0 20px;
  padding: 0;
  list-style: none;
`;

const Store = styled.li`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 8px;
  h3 { margin: 0; font-size: 1rem; }
  span { color: ${theme.color.muted}; font-size: 0.875rem; }
  a { font-weight: 600; color: ${theme.color.primary}; }
  a:focus-visible { outline: 3px solid ${theme.color.primary}; outline-offset: 2px; border-radius: 2px; }
`;

const Actions = styled.div`
  display: flex;
  justify-content: flex-end;
`;

/**
 * A mobile-only app chosen on a desktop: where to get it instead of a tab with nothing to show. Each store the app
 * has, as a link and as a QR code of the same address, so a phone can open it by its camera.
 */
export function GetAppDialog({
  app,
  stores,
  onClose,
}: {
  app: Pick<App, 'nombre'>;
  stores: readonly StoreLink[];
  onClose: () => void;
}) {
  return (
    <Modal title={`Descarga ${app.nombre} en tu teléfono`} onClose={onClose} width="560px">
      <Lead>
        {app.nombre} es una app para teléfonos y tabletas: no se abre en el navegador de la computadora. Escanea el
        código con tu teléfono o abre el enlace de su tienda.
      </Lead>
      <Stores aria-label="Tiendas">
        {stores.map((store) => (
          <Store key={store.field}>
            <h3>{store.store}</h3>
            <span>{store.devices}</span>
            <QrCode value={store.url} label={`Código QR del enlace de ${app.nombre} en ${store.store}`} />
            <a href={store.url} target="_blank" rel="noopener noreferrer">
              Abrir en {store.store}
              <VisuallyHidden> (se abre en una pestaña nueva)</VisuallyHidden>
            </a>
          </Store>
        ))}
      </Stores>
      <Actions>
        <Button $variant="secondary" onClick={onClose}>
          Cerrar
        </Button>
      </Actions>
    </Modal>
  );
}
