package tankard.extension;

import org.eclipse.jgit.api.TransportConfigCallback;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.TransportHttp;
import org.eclipse.jgit.transport.http.HttpConnection;
import org.eclipse.jgit.transport.http.HttpConnectionFactory;
import org.eclipse.jgit.transport.http.JDKHttpConnectionFactory;
import tankard.outbound.OutboundPolicy;

import java.io.IOException;
import java.net.Proxy;
import java.net.URL;

/**
 * JGit's HTTP connections, each one (redirects included: JGit follows them itself through its factory) checked
 * by the {@link OutboundPolicy} and sent through its proxy. Only HTTP remotes are fetched: the install route
 * accepts only http(s) URLs, as ST does, and a remote of another kind (file, ssh) is refused rather than
 * letting a user reach the server's own files.
 */
final class FilteredGitConnections implements HttpConnectionFactory, TransportConfigCallback {
    private final OutboundPolicy policy;
    private final JDKHttpConnectionFactory jdk = new JDKHttpConnectionFactory();

    FilteredGitConnections(OutboundPolicy policy) {
        this.policy = policy;
    }

    @Override
    public void configure(Transport transport) {
        if (!(transport instanceof TransportHttp http)) {
            throw new UnsupportedRemoteException(transport.getURI().toString());
        }
        http.setHttpConnectionFactory(this);
    }

    @Override
    public HttpConnection create(URL url) throws IOException {
        return create(url, null);
    }

    @Override
    public HttpConnection create(URL url, Proxy ignored) throws IOException {
        try {
            return jdk.create(url, policy.connectionFor(url));
        } catch (OutboundPolicy.Refused e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** A remote that is not fetched over HTTP. */
    static final class UnsupportedRemoteException extends RuntimeException {
        UnsupportedRemoteException(String uri) {
            super("Only HTTP and HTTPS remotes are supported: " + uri, null, false, false);
        }
    }
}
