// The bag sidebar ('SHOPPING BAG'), loaded only when first opened.
import type { ReactElement } from 'react';
import { store } from '../lib/store';
import { BagContents } from './BagContents';
import { Modal } from './Modal';

const close = (): void => store.getState().closePanel('bag');

export default function BagSidebar(): ReactElement {
  return (
    <Modal title="SHOPPING BAG" variant="sidebar" onClose={close}>
      <BagContents inSidebar />
    </Modal>
  );
}
