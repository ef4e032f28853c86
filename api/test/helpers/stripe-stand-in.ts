import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the few Stripe API endpoints the billing routes use, on 127.0.0.1: it is NOT Stripe. It answers
 * with the shapes Stripe documents and records every request, so tests can check what the SDK sent.
 */
export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

export const knownPriceId = 'price_suite_mensual';

export async function startStripeStandIn() {
  const requests: StandInRequest[] = [];
  let customers = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const recorded = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        form: new URLSearchParams(body),
        headers: req.headers,
      };
      requests.push(recorded);
      const send = (status: number, payload: unknown) =>
        res
          .writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${requests.length}` })
          .end(JSON.stringify(payload));
      const route = `${req.method} ${url.pathname}`;
      switch (route) {
        case 'POST /v1/customers':
          customers += 1;
          return send(200, { id: `cus_standin_${customers}`, object: 'customer', email: recorded.form.get('email') });
        case 'POST /v1/customer_sessions':
          return send(200, {
            object: 'customer_session',
            client_secret: `cuss_secret_for_${recorded.form.get('customer')}`,
            customer: recorded.form.get('customer'),
          });
        case 'POST /v1/billing_portal/sessions':
          return send(200, {
            id: 'bps_standin',
            object: 'billing_portal.session',
            url: `https://billing.stand-in.test/p/session/${recorded.form.get('customer')}`,
          });
        case 'POST /v1/checkout/sessions':
          if (recorded.form.get('line_items[0][price]') !== knownPriceId) {
            return send(400, {
              error: {
                type: 'invalid_request_error',
                code: 'resource_missing',
                param: 'line_items[0][price]',
                message: 'No such price',
              },
            });
          }
          return send(200, {
            id: 'cs_test_standin',
            object: 'checkout.session',
            url: 'https://checkout.stand-in.test/c/pay/cs_test_standin',
          });
        case 'GET /v1/prices':
          return send(200, {
            object: 'list',
            has_more: false,
            url: '/v1/prices',
            data: [
              {
                id: knownPriceId,
                object: 'price',
                currency: 'usd',
                unit_amount: 3900,
                nickname: null,
                recurring: { interval: 'month', interval_count: 1 },
                product: {
                  id: 'prod_suite',
                  object: 'product',
                  name: 'C+Suite Completa',
                  description: 'Las tres apps PRO',
                },
              },
              {
                id: 'price_suite_anual',
                object: 'price',
                currency: 'usd',
                unit_amount: 29900,
                nickname: null,
                recurring: { interval: 'year', interval_count: 1 },
                product: { id: 'prod_suite', object: 'product', name: 'C+Suite Completa', description: null },
              },
            ],
          });
        case 'GET /v1/invoices': {
          // Three paid invoices: two in USD this month (one of them paid now for an invoice created earlier) and one
          // in euros, which the dashboard leaves out.
          const now = Math.floor(Date.now() / 1000);
          const invoice = (id: string, amount: number, currency: string) => ({
            id,
            object: 'invoice',
            status: 'paid',
            currency,
            amount_paid: amount,
            created: now - 60,
            status_transitions: { paid_at: now - 30 },
          });
          return send(200, {
            object: 'list',
            has_more: false,
            url: '/v1/invoices',
            data: [invoice('in_1', 3900, 'usd'), invoice('in_2', 1250, 'usd'), invoice('in_3', 5000, 'eur')],
          });
        }
        default:
          return send(404, {
            error: { type: 'invalid_request_error', message: `Unrecognized request URL (${route})` },
          });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
