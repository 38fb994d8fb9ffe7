// The login modal (bottom bar Account when signed out): the sign-in form in a dialog.
import type { ReactElement } from 'react';
import { marketOf, prefixOf } from '../../lib/api';
import { store } from '../../lib/store';
import { LoginForm } from './LoginForm';
import { Modal } from '../../components/Modal';

const close = (): void => store.getState().closePanel('login');

export default function LoginModal(): ReactElement {
  return (
    <Modal title="Sign in" variant="centered" onClose={close}>
      <LoginForm prefix={prefixOf(marketOf())} onSignedIn={close} />
    </Modal>
  );
}
