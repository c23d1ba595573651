/**
 * The vendors' books systems Ledgerline connects to, one descriptor each (vendor-descriptor.ts), by
 * the name stored with an organisation and its connection. A new vendor is one descriptor added here.
 */
import type { Vendor } from '../domain/accounting-vendors.js';
import { quickBooks } from './quickbooks/descriptor.js';
import type { VendorDescriptor } from './vendor-descriptor.js';
import { xero } from './xero/descriptor.js';

export const VENDOR_DESCRIPTORS: Readonly<Record<Vendor, VendorDescriptor>> = {
  xero,
  quickbooks: quickBooks,
};

/** The descriptor of the vendor of this name (an organisation's accounting_system, a connection's vendor, a route's parameter); undefined for any other. */
export function vendorNamed(name: string | undefined): VendorDescriptor | undefined {
  return name !== undefined && Object.hasOwn(VENDOR_DESCRIPTORS, name) ? VENDOR_DESCRIPTORS[name as Vendor] : undefined;
}

/** The descriptor of a vendor stored as a connection's (its name checked when written). */
export function vendorOf(vendor: Vendor): VendorDescriptor {
  return VENDOR_DESCRIPTORS[vendor];
}
