import { lookup as lookupEach } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { badRequest } from '@dogshop/service-kit';
import ipaddr from 'ipaddr.js';

/** Which targets the shop may send to (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE_TARGETS). */
export interface TargetPolicy {
  allowHttp: boolean;
  allowPrivateTargets: boolean;
}

/**
 * Whether `address` is a public unicast address: not loopback, private, link-local (the cloud
 * metadata address 169.254.169.254 among them), multicast, unspecified, reserved, carrier-grade
 * NAT, documentation, nor an IPv6 form of one (IPv4-mapped, NAT64, 6to4, Teredo, unique local).
 * ipaddr.js names every special range; only what it calls plain `unicast` is public.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  const ip =
    parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress() ? parsed.toIPv4Address() : parsed;
  return ip.range() === 'unicast';
}

/**
 * A `lookup` for the sockets deliveries open (sender.ts): resolves the host as Node would, and
 * fails when any of its addresses is not public, so the socket connects only to an address that
 * was checked (a literal address is not looked up: the sender checks it).
 */
export const checkedLookup: LookupFunction = (hostname, options, callback) => {
  lookupEach(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const hidden = addresses.find((a) => !isPublicAddress(a.address));
    if (hidden) {
      return callback(
        new Error(`${hostname} resolves to ${hidden.address}, which is not a public address`),
        '',
      );
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    if (!first) return callback(new Error(`${hostname} does not resolve`), '');
    callback(null, first.address, first.family);
  });
};

/**
 * Refuses (400) a URL the shop must not send to: not https (unless allowed), or a host that is
 * or resolves to any non-public address (unless allowed). Deliveries check again when they
 * connect (checkedLookup, sender.ts): a name may resolve elsewhere later.
 */
export async function checkTarget(url: string, policy: TargetPolicy): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('body.url must be an absolute URL');
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) {
    throw badRequest(`body.url must use ${policy.allowHttp ? 'http or https' : 'https'}`);
  }
  if (parsed.username || parsed.password) throw badRequest('body.url must not carry credentials');
  if (policy.allowPrivateTargets) return;
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) throw badRequest(`body.url: ${host} is not a public address`);
    return;
  }
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    throw badRequest(`body.url: ${host} does not resolve`);
  }
  const hidden = addresses.find((a) => !isPublicAddress(a.address));
  if (hidden) {
    throw badRequest(
      `body.url: ${host} resolves to ${hidden.address}, which is not a public address`,
    );
  }
}
