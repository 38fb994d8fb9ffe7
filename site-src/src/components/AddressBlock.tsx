// One postal address shown as lines (checkout review, delivery step, order confirmation).
import type { ReactElement } from 'react';
import { addressLines, type AddressFields } from '../lib/address';

/** `inline`: inside a label (a radio choice), where <address> may not go. */
export function AddressBlock({ address, countryName, inline = false }: { address: AddressFields; countryName?: string; inline?: boolean }): ReactElement {
  const Tag = inline ? 'span' : 'address';
  return (
    <Tag className="address-block">
      {addressLines(address, countryName).map((line, index) => (
        <span key={index}>{line}</span>
      ))}
    </Tag>
  );
}
