# Casegraph service image: built in a Go image, run from a distroless
# image as a non-root user. `docker compose up` uses it (docker-compose.yml).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/casegraph ./cmd/casegraph

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/casegraph /usr/local/bin/casegraph
USER nonroot:nonroot
ENV CASEGRAPH_ADDR=0.0.0.0:8080 \
    CASEGRAPH_LOG_FORMAT=json
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/casegraph"]
CMD ["serve"]
