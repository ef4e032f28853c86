import { MarketingPage, type MarketingContent } from './MarketingPage';

const BETO: MarketingContent = {
  appId: 2,
  name: 'Beto Pro',
  tagline: 'Tu asistente con inteligencia artificial para el trabajo técnico: respuestas al instante, en tu idioma.',
  features: [
    'Interpreta hojas de datos y manuales',
    'Propone diagnósticos de fallas paso a paso',
    'Guía la calibración de instrumentos',
    'Redacta informes a partir de tus notas',
    'Disponible en la web y en tu teléfono',
  ],
  useCases: [
    {
      title: 'Mantenimiento',
      text: 'Describe el síntoma y recibe las causas probables y las pruebas para confirmarlas.',
    },
    { title: 'Puesta en marcha', text: 'Consulta rangos, conexiones y parámetros sin buscar entre manuales.' },
    { title: 'Informes', text: 'Convierte tus apuntes de campo en un informe claro para tu cliente.' },
  ],
};

/** /beto: the AI assistant's marketing page. */
export default function BetoPage() {
  return <MarketingPage content={BETO} />;
}
