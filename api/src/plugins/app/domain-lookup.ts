import fp from 'fastify-plugin';
import { type DomainLookup, dnsLookup } from '../../domain/companies/domain-lookup.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads the TXT record a company publishes to prove a domain (domain/companies/domains.ts). */
    domainLookup: DomainLookup;
  }
}

export interface DomainLookupPluginOptions {
  /** Replaces the DNS lookup (tests answer it). */
  lookup?: DomainLookup;
}

export default fp<DomainLookupPluginOptions>(
  async (app, options) => {
    app.decorate('domainLookup', options.lookup ?? dnsLookup());
  },
  { name: 'domain-lookup' },
);
