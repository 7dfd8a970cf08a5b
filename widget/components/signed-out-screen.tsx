import { CallActor } from '../call-context.ts'

export function SignedOutScreen() {
  const { send } = CallActor.useActorRef()
  return (
    <section className="screen" aria-labelledby="signed-out-title">
      <h1 id="signed-out-title">You are logged out</h1>
      <p className="meta">Log in to your phone line to make and receive calls.</p>
      <button type="button" className="primary" onClick={() => send({ type: 'auth.logIn' })}>
        Log in
      </button>
    </section>
  )
}
