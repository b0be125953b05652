// Signs in with the login token: from the address's fragment (which the browser never sends
// to a server), else as typed in. The token leaves the address bar and history at once.
const status = document.getElementById('login-status');
const form = document.getElementById('login-form');
const input = document.getElementById('login-token');

async function signIn(token) {
  status.textContent = 'Signing in…';
  const response = await fetch('/console/api/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
    credentials: 'same-origin',
  });
  if (response.ok) {
    location.replace('/console/');
    return;
  }
  const body = await response.json().catch(() => ({}));
  status.textContent = body.error ?? `Sign-in failed (${response.status}).`;
  form.hidden = false;
}

const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get('token');
history.replaceState(null, '', location.pathname);
if (token) {
  signIn(token).catch((error) => {
    status.textContent = `Sign-in failed: ${error.message}`;
    form.hidden = false;
  });
} else {
  status.textContent = 'Paste the login token.';
  form.hidden = false;
}
form.addEventListener('submit', (event) => {
  event.preventDefault();
  signIn(input.value).catch((error) => {
    status.textContent = `Sign-in failed: ${error.message}`;
  });
});
