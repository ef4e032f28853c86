// The catalogue every new installation starts with (API.md, "Seed data"). App ids are fixed: the portal refers to
// them (app 4 has no upgrade button, app 5 opens the calculator, the plans page orders 2, 3, 1). The web apps'
// addresses are the product's (@portal/contracts), which its default redirect allow-list also names.
import { PRODUCT_APP_ORIGIN } from '@portal/contracts/redirect/defaults';

export interface SeedApp {
  id: number;
  nombre: string;
  descripcion: string;
  longDescription: string;
  webUrl: string | null;
  iosUrl: string | null;
  androidUrl: string | null;
  isEnabledWeb: boolean;
  isEnabledMovil: boolean;
  tags: string[];
  plans: SeedPlan[];
}

export interface SeedPlan {
  nombre: string;
  descripcion: string;
  caracteristicas: string[];
  precioMensual: number;
  precioAnual: number;
}

export const freePlanName = 'free';

export const seedApps: SeedApp[] = [
  {
    id: 1,
    nombre: 'Control Max 360',
    descripcion: 'Supervisión y control de procesos industriales en tiempo real.',
    longDescription:
      'Control Max 360 reúne en un solo panel las variables de tu planta: lecturas en vivo, alarmas, ' +
      'históricos y reportes. Configura umbrales, recibe avisos en el móvil y comparte tableros con tu equipo.',
    webUrl: PRODUCT_APP_ORIGIN.controlMax360,
    iosUrl: `${PRODUCT_APP_ORIGIN.controlMax360}/descargar/ios`,
    androidUrl: `${PRODUCT_APP_ORIGIN.controlMax360}/descargar/android`,
    isEnabledWeb: true,
    isEnabledMovil: true,
    tags: ['Control', 'Monitoreo', 'Alarmas'],
    plans: [
      {
        nombre: freePlanName,
        descripcion: 'Para conocer la plataforma',
        caracteristicas: ['1 tablero de control', 'Hasta 5 variables monitoreadas', 'Históricos de 7 días'],
        precioMensual: 0,
        precioAnual: 0,
      },
      {
        nombre: 'PRO',
        descripcion: 'Para plantas en producción',
        caracteristicas: [
          'Tableros ilimitados',
          'Variables ilimitadas',
          'Históricos de 2 años',
          'Alarmas por email y notificación móvil',
          'Exportación de reportes',
        ],
        precioMensual: 19,
        precioAnual: 190,
      },
    ],
  },
  {
    id: 2,
    nombre: 'Beto Pro',
    descripcion: 'Asistente con inteligencia artificial para técnicos e ingenieros.',
    longDescription:
      'Beto Pro responde tus dudas técnicas al instante: interpreta hojas de datos, propone ' +
      'diagnósticos de fallas, te guía en la calibración de instrumentos y redacta informes a partir de tus notas.',
    webUrl: PRODUCT_APP_ORIGIN.betoPro,
    iosUrl: `${PRODUCT_APP_ORIGIN.betoPro}/descargar/ios`,
    androidUrl: `${PRODUCT_APP_ORIGIN.betoPro}/descargar/android`,
    isEnabledWeb: true,
    isEnabledMovil: true,
    tags: ['Inteligencia artificial', 'Asistente', 'Soporte técnico'],
    plans: [
      {
        nombre: freePlanName,
        descripcion: 'Para probar el asistente',
        caracteristicas: ['20 consultas gratuitas', 'Respuestas de texto', 'Historial de 7 días'],
        precioMensual: 0,
        precioAnual: 0,
      },
      {
        nombre: 'PRO',
        descripcion: 'Para el trabajo diario',
        caracteristicas: [
          'Consultas ilimitadas',
          'Análisis de hojas de datos y fotos',
          'Informes descargables',
          'Historial completo',
        ],
        precioMensual: 15,
        precioAnual: 150,
      },
    ],
  },
  {
    id: 3,
    nombre: 'TX30',
    descripcion: 'Software de configuración para transmisores TX30.',
    longDescription:
      'Configura, calibra y diagnostica tus transmisores TX30 desde el navegador: rangos de entrada, ' +
      'unidades, filtros y alarmas, con respaldo de configuraciones y registro de cambios.',
    webUrl: PRODUCT_APP_ORIGIN.tx30,
    iosUrl: null,
    androidUrl: null,
    isEnabledWeb: true,
    isEnabledMovil: false,
    tags: ['Transmisores', 'Configuración', 'Calibración'],
    plans: [
      {
        nombre: freePlanName,
        descripcion: 'Para un equipo',
        caracteristicas: ['1 transmisor', 'Configuración básica', 'Lectura en vivo'],
        precioMensual: 0,
        precioAnual: 0,
      },
      {
        nombre: 'PRO',
        descripcion: 'Para toda tu instalación',
        caracteristicas: [
          'Transmisores ilimitados',
          'Calibración asistida',
          'Respaldo de configuraciones en la nube',
          'Registro de cambios',
        ],
        precioMensual: 12,
        precioAnual: 120,
      },
    ],
  },
  {
    id: 4,
    nombre: 'C+Suite Completa',
    descripcion: 'Todas las aplicaciones PRO en una sola suscripción.',
    longDescription:
      'Accede a Control Max 360, Beto Pro y TX30 en su versión PRO por 39 USD al mes o 299 USD al ' +
      'año, con una sola cuenta y una sola factura.',
    webUrl: null,
    iosUrl: null,
    androidUrl: null,
    isEnabledWeb: false,
    isEnabledMovil: false,
    tags: ['Suite', 'Ahorro'],
    plans: [],
  },
  {
    id: 5,
    nombre: 'Calculadora TXI',
    descripcion: 'Conversión de señales analógicas 4-20 mA, 0-10 V y unidades de ingeniería.',
    longDescription:
      'Calcula al instante la equivalencia entre corriente, tensión, porcentaje y el rango de tu ' +
      'instrumento. Gratuita y sin instalación.',
    webUrl: '/calculadora-txi',
    iosUrl: null,
    androidUrl: null,
    isEnabledWeb: true,
    isEnabledMovil: false,
    tags: ['Herramienta', 'Señales analógicas'],
    plans: [],
  },
];
