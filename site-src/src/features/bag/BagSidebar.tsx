// The bag sidebar ('SHOPPING BAG'), loaded only when first opened.
import { useEffect, type ReactElement } from 'react';
import { openBag } from './promotions';
import { store } from '../../lib/store';
import { BagContents } from './BagContents';
import { Modal } from '../../components/Modal';

const close = (): void => store.getState().closePanel('bag');

export default function BagSidebar(): ReactElement {
  useEffect(() => {
    void openBag();
  }, []);
  return (
    <Modal title="SHOPPING BAG" variant="sidebar" onClose={close}>
      <BagContents inSidebar />
    </Modal>
  );
}
