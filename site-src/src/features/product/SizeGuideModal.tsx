// The size guide over the product page (the product options' Size guide link): the market's
// /size-guide content page, its tables shown in a dialog, so the shopper keeps their place and
// their choices. Without JavaScript the link simply opens the page.
import { useEffect, useState, type ReactElement } from 'react';
import { marketOf, prefixOf } from '../../lib/api';
import { loadPageBlocks } from '../../lib/content-page';
import { store } from '../../lib/store';
import { Modal } from '../../components/Modal';

const close = (): void => store.getState().closePanel('size-guide');

export default function SizeGuideModal(): ReactElement {
  const url = `${prefixOf(marketOf())}/size-guide`;
  // undefined while loading, null when it could not be read.
  const [guide, setGuide] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    loadPageBlocks(url)
      .then(setGuide)
      .catch((error: unknown) => {
        console.warn('[size guide]', error);
        setGuide(null);
      });
  }, [url]);
  return (
    <Modal title="Size guide" variant="sidebar" className="size-guide" onClose={close}>
      {guide === undefined ? (
        <p aria-busy="true">Loading...</p>
      ) : guide === null ? (
        <p role="alert">
          The size guide could not be loaded. <a href={url}>Open the size guide</a>
        </p>
      ) : (
        <div className="size-guide__body" dangerouslySetInnerHTML={{ __html: guide }} />
      )}
    </Modal>
  );
}
