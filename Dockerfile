# exa-orch as a streamable-HTTP MCP server: `serve --http` on port 8765 of the container.
#
#   docker build -t exa-orch .
#   docker run -p 8765:8765 -v exa-orch-data:/data \
#     -e EXA_ORCH_HTTP_TOKEN=<a long random secret> -e EXA_API_KEY=<your Exa key> exa-orch
#
# The server binds 0.0.0.0 inside the container, so it refuses to start without a bearer token
# (EXA_ORCH_HTTP_TOKEN, or named tokens in EXA_ORCH_HTTP_TOKENS): every client sends
# `Authorization: Bearer <token>`. Tasks live in /data/workflows.db (a volume: they survive a new
# container); EXA_ORCH_DB=postgresql://... shares them between containers instead.
# The image is not published anywhere; tests/test_packaging.py checks this file statically.
FROM python:3.12-slim

WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY exa_orch ./exa_orch
COPY migrations ./migrations
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 exa \
    && mkdir /data && chown exa /data \
    && rm -rf /src

USER exa
WORKDIR /home/exa
ENV EXA_ORCH_DB=/data/workflows.db
VOLUME ["/data"]
EXPOSE 8765
CMD ["exa-orch", "serve", "--http", "--host", "0.0.0.0", "--port", "8765"]
