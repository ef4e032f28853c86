import type { AppWithPlans, UserPlan } from '@portal/shared';
import {
  formatUsd,
  heldEntryOf,
  heldPlanOf,
  isHeld,
  planBadges,
  planOrigin,
  plansPageApps,
  proPlanOf,
  seatNote,
  seatPlanNote,
  upgradePath,
} from '../plans';
import { isFreePlan, planLabel } from '@portal/shared';

// Without an app: a shape the API's schema never sends, which the badges still show (the plan alone).
const entry = (id: number, nombre: string, app?: string): UserPlan =>
  ({
    id,
    plan: { nombre, descripcion: '' },
    ...(app ? { app: { id, nombre: app } } : {}),
    fechaVencimiento: null,
  }) as UserPlan;

const appWithPlans = (id: number, nombre = `App ${id}`): AppWithPlans => ({
  id,
  nombre,
  iconUrl: null,
  descripcion: '',
  longDescription: '',
  planes: [
    { id: id * 10, nombre: 'free', caracteristicas: ['Básico'], precioMensual: 0, precioAnual: 0 },
    { id: id * 10 + 1, nombre: 'PRO', caracteristicas: ['Todo'], precioMensual: 15, precioAnual: 150 },
  ],
});

describe('plan badges', () => {
  it("reads a plan named 'free' in any case as free", () => {
    expect(isFreePlan({ nombre: 'FREE' })).toBe(true);
    expect(isFreePlan({ nombre: ' Free ' })).toBe(true);
    expect(isFreePlan({ nombre: 'PRO' })).toBe(false);
    expect(isFreePlan({ nombre: 'freemium' })).toBe(false);
  });

  it("shows 'Plan gratuito' when every plan is free (and when there are none)", () => {
    expect(planBadges([entry(1, 'free', 'Beto Pro'), entry(2, 'Free', 'TX30')])).toEqual({ kind: 'free' });
    expect(planBadges([])).toEqual({ kind: 'free' });
  });

  it('lists every plan, with its app, as soon as one is not free', () => {
    expect(planBadges([entry(1, 'free', 'Beto Pro'), entry(2, 'PRO', 'TX30'), entry(3, 'PRO')])).toEqual({
      kind: 'list',
      items: [
        { id: 1, label: 'Beto Pro: Gratis', origin: null },
        { id: 2, label: 'TX30: PRO', origin: null },
        { id: 3, label: 'PRO', origin: null },
      ],
    });
  });

  it("names the company of a plan that a seat gives: 'Puesto de <Empresa>'", () => {
    const seat = { ...entry(2, 'PRO', 'TX30'), origen: 'empresa', empresa: { id: 12, nombre: 'Minera Andina S.A.' } };
    expect(planBadges([entry(1, 'free', 'Beto Pro'), seat as UserPlan])).toEqual({
      kind: 'list',
      items: [
        { id: 1, label: 'Beto Pro: Gratis', origin: null },
        { id: 2, label: 'TX30: PRO', origin: 'Puesto de Minera Andina S.A.' },
      ],
    });
  });
});

describe('where a plan comes from', () => {
  const minera = { id: 12, nombre: 'Minera Andina S.A.' };

  it("reads 'Puesto de <Empresa>' for a seat, nothing for the person's own plan or an answer that does not say", () => {
    expect(planOrigin({ origen: 'empresa', empresa: minera })).toBe('Puesto de Minera Andina S.A.');
    expect(planOrigin({ origen: 'propio', empresa: null })).toBeNull();
    expect(planOrigin({})).toBeNull();
    expect(planOrigin(undefined)).toBeNull();
    // A seat whose company the answer does not name is not shown as a seat of nobody.
    expect(planOrigin({ origen: 'empresa', empresa: null })).toBeNull();
  });

  it("says on the upgrade page that buying one's own plan is still worth it under a seat", () => {
    expect(seatNote({ origen: 'empresa', empresa: minera })).toBe(
      'Este plan te lo da un puesto de Minera Andina S.A.: si compras tu propio plan, lo conservas aunque la empresa retire el puesto.',
    );
    expect(seatNote({ origen: 'propio', empresa: null })).toBeNull();
  });

  it("names, for an app's card, the plan a company's seat gives in that app, and nothing for the person's own", () => {
    const seat = { ...entry(2, 'PRO', 'TX30'), origen: 'empresa', empresa: minera } as UserPlan;
    const own = { ...entry(1, 'PRO', 'Beto Pro'), origen: 'propio', empresa: null } as UserPlan;
    expect(seatPlanNote(2, [own, seat])).toBe('Tu plan PRO te lo da un puesto de Minera Andina S.A.');
    expect(seatPlanNote(1, [own, seat])).toBeNull();
    expect(seatPlanNote(3, [own, seat])).toBeNull();
    // An older answer that does not say where a plan comes from: the person's own, as before.
    expect(seatPlanNote(1, [entry(1, 'PRO', 'Beto Pro')])).toBeNull();
  });

  it("finds the person's entry of an app, with its origin", () => {
    const seat = { ...entry(2, 'PRO', 'TX30'), origen: 'empresa', empresa: minera } as UserPlan;
    expect(heldEntryOf(2, [entry(1, 'free', 'Beto Pro'), seat])).toBe(seat);
    expect(heldEntryOf(3, [seat])).toBeUndefined();
  });
});

describe('plans page', () => {
  it('orders the apps 2, 3, 1 and leaves out every other app', () => {
    const apps = [1, 2, 3, 4, 5].map((id) => appWithPlans(id));
    expect(plansPageApps(apps).map((app) => app.id)).toEqual([2, 3, 1]);
    expect(plansPageApps([appWithPlans(1), appWithPlans(5)]).map((app) => app.id)).toEqual([1]);
    expect(plansPageApps([])).toEqual([]);
  });

  it('finds the PRO plan of an app', () => {
    expect(proPlanOf(appWithPlans(2))?.nombre).toBe('PRO');
    expect(proPlanOf({ planes: [] })).toBeUndefined();
  });

  it("finds the plan the person has in an app, by the app's id, and tells it among the app's plans by name", () => {
    const mine = [entry(1, 'free', 'Control Max 360'), entry(2, ' pro ', 'Beto Pro')];
    expect(heldPlanOf(2, mine)?.nombre).toBe(' pro ');
    expect(heldPlanOf(3, mine)).toBeUndefined();
    expect(heldPlanOf(2, [entry(2, 'PRO')])).toBeUndefined();
    const [free, pro] = appWithPlans(2).planes;
    expect(isHeld(pro!, heldPlanOf(2, mine))).toBe(true);
    expect(isHeld(free!, heldPlanOf(2, mine))).toBe(false);
    expect(isHeld(free!, heldPlanOf(1, mine))).toBe(true);
    expect(isHeld(free!, undefined)).toBe(false);
  });

  it('writes prices in USD without needless decimals', () => {
    expect(formatUsd(39)).toBe('39 USD');
    expect(formatUsd(12.5)).toBe('12.50 USD');
  });
});

describe('upgrade path', () => {
  it('goes to /apps/{id}, to /apps/ without an id, and nowhere for app 4', () => {
    expect(upgradePath({ id: 2 })).toBe('/apps/2');
    expect(upgradePath({ id: null })).toBe('/apps/');
    expect(upgradePath({ id: 4 })).toBeNull();
  });
});

describe('plan names a person reads', () => {
  it("reads 'Gratis' for the free plan and 'PRO' for a PRO one, whatever their case", () => {
    expect(planLabel({ nombre: 'free' })).toBe('Gratis');
    expect(planLabel({ nombre: ' Free ' })).toBe('Gratis');
    expect(planLabel({ nombre: 'pro' })).toBe('PRO');
    expect(planLabel({ nombre: 'Empresa' })).toBe('Empresa');
  });
});
