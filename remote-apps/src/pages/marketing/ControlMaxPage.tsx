import { MarketingPage, type MarketingContent } from './MarketingPage';

const CONTROL_MAX: MarketingContent = {
  appId: 1,
  name: 'Control Max 360',
  tagline: 'Supervisa y controla tus procesos en tiempo real, desde la planta o desde tu teléfono.',
  features: [
    'Tableros con lecturas en vivo',
    'Alarmas por umbral con avisos a tu teléfono',
    'Históricos y tendencias',
    'Reportes exportables',
    'Tableros compartidos con tu equipo',
  ],
  useCases: [
    { title: 'Plantas de proceso', text: 'Vigila presión, caudal y temperatura en un solo panel.' },
    { title: 'Estaciones remotas', text: 'Recibe una alarma en cuanto una variable sale de su rango.' },
    { title: 'Auditorías', text: 'Exporta los históricos que pide tu cliente o el regulador.' },
  ],
};

/** /control-max: Control Max 360's marketing page. */
export default function ControlMaxPage() {
  return <MarketingPage content={CONTROL_MAX} />;
}
